import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/settings.js';
import type { ContentType } from '../../src/reference/index.js';
import { createRng } from '../../src/reference/rng.js';
import { openStore } from '../../src/store/index.js';
import { pull } from '../../src/sync/index.js';
import { credentialEnv, pullArgs } from '../helpers/cli-args.js';
import { useSiteAndCache } from '../helpers/mirror-fixture.js';
import { cacheSnapshot, expectCacheEqualsSite } from '../helpers/reliability-compare.js';
import { onRequest, runChild } from '../helpers/reliability-process.js';

const SITE = { posts: 250, languages: ['pl', 'es'] } as const;
const SEED = 6404;
const TYPES: readonly ContentType[] = ['posts', 'pages', 'media'];

/**
 * Items edited, created, trashed, unpublished and deleted on the site while a `pull` child
 * process crawls it (slowed with latency so the crawl takes a while). The changes are made
 * from the test process through `site.control`, one to three after every collection page the
 * crawl asks for (chosen by a seeded RNG), all within one second of the site's clock. The
 * pull must finish cleanly, and so must a second one during more changes; one more pull must
 * then leave the cache equal to the site, with every item the first pull stored and the site
 * deleted or trashed since kept as a tombstone.
 */
describe('reliability: the site changes while a pull runs', () => {
  const fixture = useSiteAndCache({ ...SITE, faults: 'latency=3ms..12ms' }, 'cms-mirror-rel-');

  function settings() {
    const { site, temp } = fixture;
    const resolved = resolveSettings(
      { site: site.url, lang: 'pl,es', cache: temp.file },
      credentialEnv(site),
    );
    resolved.http = { ...resolved.http, requestsPerSecond: 0 };
    return resolved;
  }

  /**
   * One change, chosen by `rng`; returns what it did. `pl` gets creates and deletes (its
   * counts move, so the pull's deletion check looks closer); `es` gets edits, trashes and
   * unpublishing, which leave the counts as they were: only the watermark and its overlap
   * find those. Items leave the site only as posts: deleting a media item or unpublishing a
   * parent page also changes other items' JSON (`seo_head_json.og_image` of the posts it
   * featured, the `link` of child pages) without their `modified_gmt` moving, which no
   * incremental pull can see.
   */
  function change(rng: () => number, n: number): string {
    const { site } = fixture;
    const type = TYPES[Math.floor(rng() * TYPES.length)]!;
    const action = Math.floor(rng() * 4);
    if (rng() < 0.4) {
      if (action < 2) {
        site.control.createItems('pl', type, 1 + Math.floor(rng() * 2));
        return `create pl/${type}`;
      }
      const posts = site.control.listItems('pl', 'posts');
      const post = posts[Math.floor(rng() * posts.length)]!;
      site.control.deleteItem('pl', 'posts', post.id);
      return `delete pl/posts/${post.id}`;
    }
    const target = action === 1 || action === 2 ? 'posts' : type;
    const items = site.control.listItems('es', target).filter((item) => item.status !== 'trash');
    const item = items[Math.floor(rng() * items.length)]!;
    const where = `es/${target}/${item.id}`;
    if (action === 1) {
      site.control.updateItem('es', target, item.id, { status: 'trash' });
      return `trash ${where}`;
    }
    if (action === 2) {
      site.control.updateItem('es', target, item.id, { status: 'draft' });
      return `unpublish ${where}`;
    }
    site.control.updateItem('es', target, item.id, { title: `Cambio ${n} durante la copia` });
    return `edit ${where}`;
  }

  /**
   * One `pull` child process while the site changes: one to three changes after every
   * collection page the crawl asks for. Returns the changes made.
   */
  async function pullDuringChanges(rng: () => number, done: string[]): Promise<void> {
    const { site, temp } = fixture;
    const log = site.requests;
    const before = done.length;
    const stop = onRequest(site, () => {
      const entry = log[log.length - 1]!;
      // Each page of a crawl (a collection list) is followed by one to three changes, made
      // while the answer is on its way, as on a live site.
      if (entry.method !== 'GET' || !/^\/cms\/v2\/(posts|pages|media)$/.test(entry.path)) return;
      const count = 1 + Math.floor(rng() * 3);
      setImmediate(() => {
        for (let i = 0; i < count; i++) done.push(change(rng, done.length));
      });
    });
    let run;
    try {
      run = await runChild(pullArgs(site, temp, { backup: false }), {
        env: credentialEnv(site),
        cwd: temp.dir,
        site,
      });
    } finally {
      stop();
    }
    expect(run.code, run.stderr).toBe(0);
    expect(done.length - before, 'changes made while the pull ran').toBeGreaterThan(10);
  }

  it('a pull during changes finishes, and one more pull leaves the cache equal to the site', async () => {
    const { site, temp } = fixture;
    // Every change lands in one second, as edits on a busy site do: many of them after the
    // crawl has read that second, so only the overlap at the watermark brings them in.
    const frozen = new Date();
    site.control.setClock(() => frozen);
    const rng = createRng(SEED);
    const done: string[] = [];
    await pullDuringChanges(rng, done);
    // Every item the first pull stored must stay: live, or a tombstone once it left the site.
    // The second pull runs during changes too, so items stored live now leave the site while
    // it runs: a pull that dropped their rows instead of keeping tombstones is seen.
    const first = openStore(temp.file, { readonly: true });
    let before;
    try {
      before = cacheSnapshot(first, SITE.languages);
    } finally {
      first.close();
    }
    await pullDuringChanges(rng, done);
    expect(
      done.filter((line) => line.startsWith('delete ') || line.startsWith('trash ')).length,
      'items that left the site',
    ).toBeGreaterThan(0);

    const last = await pull(settings());
    expect(last.status).toBe('ok');
    const store = openStore(temp.file, { readonly: true });
    try {
      expect(store.checkIntegrity()).toEqual([]);
      const compared = await expectCacheEqualsSite(store, site, {
        languages: SITE.languages,
        before,
      });
      expect(compared, done.join('\n')).toBeGreaterThan(500);
    } finally {
      store.close();
    }
  });
});
