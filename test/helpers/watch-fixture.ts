import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runBuild } from '../../src/site/run-build.js';
import { resolveSettings, type Settings } from '../../src/config/settings.js';
import { checkout } from '../../src/push/index.js';
import { startReferenceSite, type ReferenceSite } from '../../src/reference/index.js';
import { openStore } from '../../src/store/index.js';
import { pull } from '../../src/sync/index.js';
import { tempCache, type TempCache } from './temp-cache.js';
import { credentialEnv } from './cli-args.js';

/**
 * What every watch test starts from, the way a user gets there: the reference site pulled
 * (pl), checked out, and built once, all in a fresh temp dir.
 */
export interface WatchFixture {
  readonly site: ReferenceSite;
  readonly temp: TempCache;
  readonly settings: Settings;
  /** The checkout dir. */
  readonly dir: string;
  /** The output dir (`<out>/pl/...`). */
  readonly out: string;
  readonly env: NodeJS.ProcessEnv;
  /** A published, unprotected post: its checkout file and its page in the output. */
  readonly post: { id: number; file: string; page: string; title: string };
  close(): Promise<void>;
}

export async function watchFixture(options: { templates?: string } = {}): Promise<WatchFixture> {
  const site = await startReferenceSite();
  const temp = tempCache('cms-mirror-watch-');
  try {
    const dir = path.join(temp.dir, 'content');
    const out = path.join(temp.dir, 'output');
    const env = credentialEnv(site);
    const settings = resolveSettings(
      {
        site: site.url,
        lang: 'pl',
        cache: temp.file,
        out,
        ...(options.templates !== undefined ? { templates: options.templates } : {}),
      },
      env,
      temp.dir,
    );
    await pull(settings);
    const store = openStore(temp.file);
    let post: WatchFixture['post'] | undefined;
    try {
      checkout({ store, dir, languages: ['pl'] });
      await runBuild(store, settings);
      const published = site.control
        .listItems('pl', 'posts')
        .filter((item) => item.status === 'publish' && item.password === '');
      for (const item of published) {
        const row = store.checkouts.get('pl', 'posts', item.id);
        const cached = store.items.get('pl', 'posts', item.id);
        if (row === undefined || cached === undefined) continue;
        const link = (JSON.parse(cached.json) as { link: string }).link;
        const sitePath = new URL(link).pathname.replace(/^\/pl\//, '');
        const page = path.join(out, 'pl', sitePath, 'index.html');
        if (existsSync(page)) {
          post = { id: item.id, file: row.file, page, title: item.title };
          break;
        }
      }
    } finally {
      store.close();
    }
    if (post === undefined) throw new Error('the fixture found no published post with a page');
    const found = post;
    return {
      site,
      temp,
      settings,
      dir,
      out,
      env,
      post: found,
      close: async () => {
        await site.close();
        temp.cleanup();
      },
    };
  } catch (error) {
    await site.close();
    temp.cleanup();
    throw error;
  }
}

/** Polls `check` every 25 ms until it returns true; fails after `timeoutMs` (a generous bound, not a speed test). */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The text of a file, or '' when it does not exist (yet). */
export function textOf(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Every file below `root` whose name marks it as a temporary write (`*.tmp`, `.*.tmp`). */
export function temporaryFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tmp$|~$|\.partial$/.test(entry.name)) found.push(full);
    }
  };
  if (existsSync(root)) walk(root);
  return found;
}

/** The checkout file with a new title in its front matter. */
export function withTitle(text: string, title: string): string {
  const next = text.replace(/^title: .*$/m, `title: ${title}`);
  if (next === text) throw new Error('the checkout file has no title line');
  return next;
}
