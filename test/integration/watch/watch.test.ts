import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../../src/config/settings.js';
import { openStore } from '../../../src/store/index.js';
import { parseDuration } from '../../../src/duration.js';
import { watchCheckouts, type WatchOptions } from '../../../src/watch/index.js';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';
import {
  temporaryFiles,
  textOf,
  waitFor,
  watchFixture,
  withTitle,
  type WatchFixture,
} from '../../helpers/watch-fixture.js';

const THEME = fileURLToPath(new URL('../../../templates/', import.meta.url));

/** Starts a watch through the library; resolves once chokidar is ready. */
async function startWatch(options: Omit<WatchOptions, 'onLine' | 'signal' | 'onReady'>) {
  const lines: string[] = [];
  const controller = new AbortController();
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const done = watchCheckouts({
    ...options,
    onLine: (line) => lines.push(line),
    signal: controller.signal,
    onReady: () => ready(),
  });
  // A watch that fails to start must fail the test, not hang it.
  await Promise.race([isReady, done]);
  return {
    lines,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

describe('watch', () => {
  let fixture: WatchFixture | undefined;
  let theme: TempCache | undefined;
  afterEach(async () => {
    await fixture?.close();
    theme?.cleanup();
    fixture = undefined;
    theme = undefined;
  });

  it('--push: a saved edit reaches the site and its output page is rebuilt; stops cleanly', async () => {
    fixture = await watchFixture();
    const { site, settings, dir, post } = fixture;
    const watch = await startWatch({ settings, dir, push: true, debounceMs: 100 });
    const title = 'Zapisane w edytorze';
    expect(textOf(post.page)).not.toContain(title);

    const saved = performance.now();
    writeFileSync(post.file, withTitle(readFileSync(post.file, 'utf8'), title));
    let onSite = 0;
    await waitFor('the site to have the new title', () => {
      if (site.control.getItem('pl', 'posts', post.id)?.title !== title) return false;
      onSite = performance.now() - saved;
      return true;
    });
    await waitFor('the output page to show the new title', () =>
      textOf(post.page).includes(`<h1>${title}</h1>`),
    );
    const inOutput = performance.now() - saved;
    // Measured, not asserted (speed belongs to benchmarks): the issue aims at under 2 s.
    console.log(
      `watch --push latency: save → site ${onSite.toFixed(0)} ms, save → rebuilt page ${inOutput.toFixed(0)} ms`,
    );
    await watch.stop();

    expect(watch.lines.some((line) => line.startsWith('pushed: 1 updated'))).toBe(true);
    expect(watch.lines.some((line) => /^rebuilt pl: [1-9]\d* written/.test(line))).toBe(true);
    expect(watch.lines.filter((line) => line.startsWith('error'))).toEqual([]);
    const store = openStore(settings.cache);
    try {
      expect(store.edits.list({ state: 'pending' })).toEqual([]);
      expect(store.edits.list({ state: 'done' })).toHaveLength(1);
      expect(store.checkIntegrity()).toEqual([]);
    } finally {
      store.close();
    }
    // The checkout file now holds the site's version (rewritten atomically, nothing left over).
    expect(readFileSync(post.file, 'utf8')).toMatch(new RegExp(`^title: ${title}$`, 'm'));
    expect(temporaryFiles(dir)).toEqual([]);
    expect(temporaryFiles(fixture.out)).toEqual([]);
  });

  it('--push keeps its site session: the index is read and the credentials checked once for two saves, again after a push that failed', async () => {
    fixture = await watchFixture();
    const { site, dir, post } = fixture;
    // No retries: the failing push below fails at its first request.
    const settings = { ...fixture.settings, http: { ...fixture.settings.http, retries: 0 } };
    site.control.clearLog();
    const watch = await startWatch({ settings, dir, push: true, rebuild: false, debounceMs: 50 });
    // The site's index (GET of the API root) and the credential check (a `context=edit`
    // list of one item) are the two requests a push makes before it can send anything.
    const indexReads = () =>
      site.requests.filter((entry) => entry.method === 'GET' && entry.path === '/').length;
    const credentialChecks = () =>
      site.requests.filter(
        (entry) =>
          entry.method === 'GET' &&
          entry.path === '/cms/v2/posts' &&
          entry.query['context'] === 'edit' &&
          // The conflict check asks for the edited ids (`include`); the credential check not.
          Object.keys(entry.query).sort().join() === 'context,per_page',
      ).length;
    const save = async (title: string, outcome = 'pushed: ') => {
      const seen = watch.lines.filter((line) => line.startsWith(outcome)).length;
      writeFileSync(post.file, withTitle(readFileSync(post.file, 'utf8'), title));
      await waitFor(`"${outcome}" after saving "${title}"`, () => {
        return watch.lines.filter((line) => line.startsWith(outcome)).length > seen;
      });
    };
    await save('Pierwszy zapis');
    await save('Drugi zapis');
    expect(site.control.getItem('pl', 'posts', post.id)?.title).toBe('Drugi zapis');
    expect([indexReads(), credentialChecks()]).toEqual([1, 1]);

    // A push that fails (the site answers 500): the kept session is dropped, and the next
    // push reads the index and checks the credentials again.
    site.control.setFaults('error=1');
    await save('Nieudany zapis', 'error: ');
    site.control.setFaults(undefined);
    await save('Czwarty zapis');
    await watch.stop();
    expect(site.control.getItem('pl', 'posts', post.id)?.title).toBe('Czwarty zapis');
    expect([indexReads(), credentialChecks()]).toEqual([2, 2]);
  });

  it('a template change rebuilds the site with the new theme', async () => {
    theme = tempCache('cms-mirror-theme-');
    const templates = path.join(theme.dir, 'theme');
    cpSync(THEME, templates, { recursive: true });
    fixture = await watchFixture({ templates });
    const { settings, dir, post } = fixture;
    expect(textOf(post.page)).not.toContain('watched-theme');
    const watch = await startWatch({ settings, dir, debounceMs: 50 });

    const layout = path.join(templates, '_includes', 'pages', 'post.njk');
    const before = readFileSync(layout, 'utf8');
    writeFileSync(
      layout,
      before.replace('<article class="entry">', '<article class="entry watched-theme">'),
    );
    await waitFor('the post page to use the changed template', () =>
      textOf(post.page).includes('<article class="entry watched-theme">'),
    );
    await watch.stop();
    expect(watch.lines.some((line) => line.startsWith('rebuilt pl:'))).toBe(true);
    // Nothing was pushed or recorded: a theme change is not a content change.
    expect(watch.lines.some((line) => /^(pushed|recorded)/.test(line))).toBe(false);
  });

  it('--pull-every 1s pulls periodically: a site-side edit reaches the cache and the output', async () => {
    fixture = await watchFixture();
    const { site, settings, dir, post } = fixture;
    site.control.clearLog();
    const watch = await startWatch({ settings, dir, pullEveryMs: parseDuration('1s') });
    const title = 'Zmienione na stronie';
    site.control.updateItem('pl', 'posts', post.id, { title });

    await waitFor('the output page to show the site-side edit', () =>
      textOf(post.page).includes(`<h1>${title}</h1>`),
    );
    const store = openStore(settings.cache);
    try {
      const cached = JSON.parse(store.items.get('pl', 'posts', post.id)!.json) as {
        title: { rendered: string };
      };
      expect(cached.title.rendered).toBe(title);
    } finally {
      store.close();
    }
    // A second pull after the one that brought the change: the pulls keep coming.
    const pullsSoFar = () =>
      site.requests.filter(
        (entry) => entry.path.startsWith('/cms/v2/posts') && entry.method === 'GET',
      ).length;
    const seen = pullsSoFar();
    await waitFor('another periodic pull', () => pullsSoFar() > seen);
    await watch.stop();
    expect(watch.lines.some((line) => /^pulled: 0 created, 1 updated/.test(line))).toBe(true);
    expect(watch.lines.some((line) => line.startsWith('rebuilt pl:'))).toBe(true);
    expect(watch.lines.filter((line) => line.startsWith('error'))).toEqual([]);
  });

  it('refuses a checkout dir that does not exist, saying what to do', async () => {
    const temp = tempCache();
    try {
      await expect(
        watchCheckouts({
          settings: resolveSettings({ cache: temp.file }, {}, temp.dir),
          dir: path.join(temp.dir, 'nothing-here'),
          onLine: () => undefined,
          signal: AbortSignal.abort(),
        }),
      ).rejects.toMatchObject({ code: 'E_INPUT', message: /run "cms-mirror checkout" first/ });
    } finally {
      temp.cleanup();
    }
  });
});
