import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccessError, ConfigError, HttpError } from '../../../src/errors.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { pull, type PullOptions } from '../../../src/sync/pull.js';
import type { PullCounters, PullEvent, PullSummary } from '../../../src/sync/pull-summary.js';
import { settingsFor } from '../../helpers/mirror-check.js';
import { useSite } from '../../helpers/mirror-fixture.js';
import { openHandles } from '../../helpers/sync/pull-cache-handles.js';
import { PULL_COUNTER_KEYS } from '../../helpers/sync/pull-counter-keys.js';
import { startIndexProxy } from '../../helpers/sync/pull-language-site.js';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';

/**
 * `pull` as a whole against a small reference site on 127.0.0.1 (two languages, real HTTP, a
 * real SQLite cache): the `runs` row it records (ok, partial or failed, with its counters),
 * the summary (per language and in total, requests as the site saw them), what backup mode
 * adds, and what it refuses before any cache file exists.
 */
describe('pull', () => {
  const fixture = useSite({ languages: ['pl', 'es'], posts: 2, pages: 1, media: 1 }, 'all');
  let temp: TempCache;
  beforeEach(() => {
    temp = tempCache();
    fixture.site.control.clearLog();
  });
  afterEach(() => {
    fixture.site.control.setFaults(undefined);
    temp.cleanup();
  });

  function settings(options: Parameters<typeof settingsFor>[2] = {}) {
    return settingsFor(fixture.site, temp.file, options);
  }

  /** Runs `read` on the cache, read-only, and closes it. */
  function inCache<T>(read: (store: Store) => T): T {
    const store = openStore(temp.file, { readonly: true });
    try {
      return read(store);
    } finally {
      store.close();
    }
  }

  const requestsOf = (lang: string) =>
    fixture.site.requests.filter((request) => request.lang === lang).length;
  const historyRequests = () =>
    fixture.site.requests.filter((request) => /\/(revisions|autosaves)$/.test(request.path));
  const KEYS: readonly (keyof PullCounters)[] = PULL_COUNTER_KEYS;

  /** Every counter of the total is the sum over the languages (seconds: the wall time). */
  function expectTotalIsSum(summary: PullSummary): void {
    for (const key of KEYS.filter((key) => key !== 'seconds'))
      expect(summary.total[key], key).toBe(
        summary.languages['pl']![key] + summary.languages['es']![key],
      );
  }

  it('in backup mode (the settings default): every language stored, a run row "ok" with the summary, the history kept', async () => {
    const { site } = fixture;
    const started = Date.now();
    const summary = await pull(settings({ backup: true }));
    const wall = (Date.now() - started) / 1000;
    expect(summary.status).toBe('ok');
    expect(Object.keys(summary.languages)).toEqual(['pl', 'es']);
    for (const lang of ['pl', 'es']) {
      const counters = summary.languages[lang]!;
      // Every request the site saw for this language, counted by that language.
      expect(counters.requests, lang).toBe(requestsOf(lang));
      expect(counters.requests, lang).toBeGreaterThan(5);
      expect(counters.created, lang).toBe(
        ['posts', 'pages', 'media'].reduce(
          (n, type) => n + site.control.listItems(lang, type as 'posts').length,
          0,
        ),
      );
      expect(counters.revisions, lang).toBeGreaterThan(0);
      expect(counters.errors, lang).toBe(0);
      expect(counters.seconds, lang).toBeGreaterThanOrEqual(0);
      expect(counters.seconds, lang).toBeLessThanOrEqual(summary.total.seconds);
    }
    expect(summary.total.seconds).toBeGreaterThan(0);
    expect(summary.total.seconds).toBeLessThanOrEqual(wall + 0.01);
    expectTotalIsSum(summary);
    expect(summary.total.requests).toBe(site.requests.length);
    expect(historyRequests().length).toBeGreaterThan(0);
    inCache((store) => {
      const run = store.runs.get(summary.runId);
      expect(run).toMatchObject({ command: 'pull', status: 'ok' });
      expect(run!.finishedAt).toEqual(expect.any(String));
      expect(run!.counters).toEqual({
        languages: summary.languages,
        total: summary.total,
        backup: true,
      });
      // Backup mode keeps each item's history, as seen by this run.
      const post = site.control.listItems('pl', 'posts')[0]!;
      expect(
        store.itemVersions.versionsOf('pl', 'posts', post.id).map((version) => version.runId),
      ).toEqual([summary.runId]);
      expect(store.revisions.list('es', 'posts', post.id).length).toBeGreaterThan(0);
    });
  });

  it('without backup when told so, whatever the settings say: no revisions, no history', async () => {
    const summary = await pull(settings({ backup: true }), { backup: false });
    expect(summary.status).toBe('ok');
    expect(summary.total.revisions).toBe(0);
    expect(historyRequests()).toEqual([]);
    // The cache is closed once the pull returns.
    expect(openHandles(temp.file)).toBe(0);
    inCache((store) => {
      expect(store.runs.get(summary.runId)?.counters).toMatchObject({ backup: false });
      const post = fixture.site.control.listItems('pl', 'posts')[0]!;
      expect(store.items.get('pl', 'posts', post.id)).toMatchObject({ deletedAt: null });
      expect(store.itemVersions.versionsOf('pl', 'posts', post.id)).toEqual([]);
    });
  });

  it('anonymously: the published content, status "ok"', async () => {
    const summary = await pull(settings({ auth: false }));
    expect(summary.status).toBe('ok');
    expect(summary.total.created).toBeGreaterThan(0);
    expect(summary.total.requests).toBe(fixture.site.requests.length);
    expect(fixture.site.requests.every((request) => !request.authenticated)).toBe(true);
  });

  it('closes its connections to the site when it is done', async () => {
    const proxy = await startIndexProxy(fixture.site, {});
    try {
      const summary = await pull(
        settingsFor({ ...fixture.site, url: proxy.url }, temp.file, { auth: false }),
      );
      expect(summary.total.requests).toBeGreaterThan(3);
      expect(proxy.requests).toHaveLength(summary.total.requests);
      // Left open, keep-alive connections would stay for seconds (the server's timeout).
      for (let waited = 0; proxy.openConnections() > 0 && waited < 1000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(proxy.openConnections()).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it('reports progress to onProgress: one "done" per language and collection', async () => {
    const events: PullEvent[] = [];
    const summary = await pull(settings(), { onProgress: (event) => events.push(event) });
    const done = events.filter((event) => event.type === 'progress' && event.phase === 'done');
    expect(done.map((event) => `${event.lang}`).sort()).toEqual([
      'es',
      'es',
      'es',
      'pl',
      'pl',
      'pl',
    ]);
    expect(summary.status).toBe('ok');
  });

  it('refuses --backup without credentials before any request or cache file, naming both variables', async () => {
    const s = settings({ auth: false, backup: true });
    const error = await pull(s).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).field).toBe('backup');
    const message = (error as ConfigError).message;
    expect(message).toContain(`set ${s.credentialNames.user} and ${s.credentialNames.password}`);
    expect(message).toMatch(/revisions and autosaves/);
    expect(message).toMatch(/or pull without --backup$/);
    expect(fixture.site.requests).toEqual([]);
    expect(existsSync(temp.file)).toBe(false);
    // Told explicitly, the same settings pull without backup.
    expect((await pull(s, { backup: false })).status).toBe('ok');
  });

  it('refuses a wrong password before any cache file exists, naming the variables to fix', async () => {
    const s = settings({ auth: 'wrong' });
    const error = await pull(s).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(s.credentialNames.password);
    expect(existsSync(temp.file)).toBe(false);
    expect(fixture.site.requests.some((request) => request.query['orderby'] !== undefined)).toBe(
      false,
    );
  });

  it('refuses an author with --backup before any cache file, naming pages and the way out', async () => {
    const { site } = fixture;
    const s = settingsFor({ ...site, credentials: site.roleCredentials.author }, temp.file, {
      backup: true,
    });
    const error = await pull(s).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AccessError);
    const { message } = error as AccessError;
    expect(message).toMatch(/may not list pages that are not published/);
    expect(message).toContain(
      `, or pull without --backup and without ${s.credentialNames.user}/${s.credentialNames.password} (published content only)`,
    );
    expect(existsSync(temp.file)).toBe(false);
  });

  it('is "partial" when media files cannot be fetched, and says so in its run row', async () => {
    const s = settings();
    // Smaller than any file the site holds: every download is refused after its headers.
    s.media = { ...s.media, maxBytes: 16 };
    const summary = await pull(s);
    expect(summary.total.errors).toBeGreaterThan(0);
    expect(summary.total.media_files).toBe(0);
    expect(summary.status).toBe('partial');
    expect(inCache((store) => store.runs.get(summary.runId)?.status)).toBe('partial');
  });

  it('records a failed run, with the error and what each language did, and throws the error', async () => {
    const { site } = fixture;
    const s = settings();
    s.http = { ...s.http, retries: 0 };
    let armed = false;
    const error = await pull(s, {
      onProgress: () => {
        // Once the checks are through and the crawl has begun, every answer is a 500.
        if (!armed) site.control.setFaults('error=1');
        armed = true;
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(500);
    const run = inCache((store) => store.runs.latest());
    expect(run).toMatchObject({ command: 'pull', status: 'failed' });
    const counters = run!.counters as { languages: Record<string, PullCounters>; error: string };
    expect(counters.error).toBe((error as Error).message);
    expect(Object.keys(counters.languages)).toEqual(['pl', 'es']);
    for (const lang of ['pl', 'es'])
      expect(counters.languages[lang]!.requests, lang).toBe(requestsOf(lang));
    expect(counters).toMatchObject({ total: { requests: site.requests.length } });
  });

  it('records what a failure that is not an Error said', async () => {
    const error = await pull(settings(), {
      onProgress: () => {
        throw 'the progress display broke';
      },
    } satisfies PullOptions).catch((e: unknown) => e);
    expect(error).toBe('the progress display broke');
    expect(openHandles(temp.file)).toBe(0);
    const run = inCache((store) => store.runs.latest());
    expect(run).toMatchObject({
      status: 'failed',
      counters: { error: 'the progress display broke' },
    });
  });
});

/**
 * The `changed` event (what `run` starts its build workers on): each collection stream's first
 * stored change, once, before that stream reports `done`; nothing for a pull that stores no
 * change.
 */
describe('pull: changed events', () => {
  const fixture = useSite({ languages: ['pl', 'es'], posts: 3, pages: 1, media: 1 });
  let temp: TempCache;
  beforeEach(() => {
    temp = tempCache();
  });
  afterEach(() => temp.cleanup());

  async function pulledEvents(): Promise<PullEvent[]> {
    const events: PullEvent[] = [];
    await pull(settingsFor(fixture.site, temp.file, {}), {
      onProgress: (event) => events.push(event),
    });
    return events;
  }

  const changedStreams = (events: readonly PullEvent[]): string[] =>
    events.flatMap((event) =>
      event.type === 'changed' ? [`${event.lang}/${event.collection}`] : [],
    );

  it('reports the first change of each stream once, before its done; none when nothing changed', async () => {
    const first = await pulledEvents();
    // Three posts in one stream: still one event for it.
    expect(changedStreams(first).sort()).toEqual([
      'es/media',
      'es/pages',
      'es/posts',
      'pl/media',
      'pl/pages',
      'pl/posts',
    ]);
    for (const stream of changedStreams(first)) {
      const reported = first.findIndex(
        (event) => event.type === 'changed' && `${event.lang}/${event.collection}` === stream,
      );
      const done = first.findIndex(
        (event) =>
          event.type === 'progress' &&
          event.phase === 'done' &&
          `${event.lang}/${event.collection}` === stream,
      );
      expect(reported, stream).toBeLessThan(done);
    }

    expect(changedStreams(await pulledEvents())).toEqual([]);

    const [post] = fixture.site.control.listItems('pl', 'posts');
    fixture.site.control.updateItem('pl', 'posts', post!.id, { title: 'An edited title' });
    expect(changedStreams(await pulledEvents())).toEqual(['pl/posts']);
  });
});
