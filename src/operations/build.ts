import type { Settings } from '../config/index.js';
import type { BuildSummary, BuildWorkers } from '../site/index.js';
import type { StaticServer } from '../site/static-server.js';
import type { Store } from '../store/index.js';

export interface BuildOptions {
  readonly settings: Settings;
  /** Render every page again, even when nothing changed. @default false */
  readonly force?: boolean;
  /**
   * Items changed per language since the last build, as a pull's `changed` says; a language
   * it does not name had none (and is skipped if its last build is complete). @default
   * unknown: every language is looked at page by page (`cms-mirror build`)
   */
  readonly changed?: Readonly<Record<string, number>>;
  /** One line per step, for the terminal. */
  readonly onLine?: (line: string) => void;
  /** A session's kept render workers (watch); @default workers for this build only */
  readonly workers?: () => BuildWorkers;
  /**
   * Called before each step that changes the output (`stage pl 2024/a/index.html`,
   * `commit pl`, `switch pl ...`, `switched pl`, `recover pl forward`), e.g. to log or test
   * them. @default the trace the environment asks for (`CMS_MIRROR_BUILD_TRACE`), else none
   */
  readonly trace?: (step: string) => void;
  /**
   * After a few edits, the pages they touch reach the output before their search bundles are
   * indexed again (a second switch): for `watch`. @default false
   */
  readonly pagesFirst?: boolean;
  /**
   * An open cache to build from, left open: a run's, whose pull wrote it through this
   * connection (a second open read the schema again and, at the pull's close, checkpointed
   * the WAL only for the build to open it anew). @default settings.cache, opened and closed here
   */
  readonly store?: Store;
}

// SQLite's own default page cache: a build reads each row about once (store-options.ts).
const BUILD_PAGE_CACHE_MIB = 2;

export type BuildResult = BuildSummary;

/** Builds output/{lang}/ from the cache, only what changed (see `cms-mirror build`). */
export async function build(options: BuildOptions): Promise<BuildResult> {
  const [{ runBuild }, { openStore }] = await Promise.all([
    import('../site/index.js'),
    import('../store/index.js'),
  ]);
  const { settings, changed } = options;
  const store = options.store ?? openStore(settings.cache, { pageCacheMib: BUILD_PAGE_CACHE_MIB });
  if (options.store) store.setPageCache(BUILD_PAGE_CACHE_MIB);
  try {
    const languages = settings.languages.length > 0 ? settings.languages : store.items.langs();
    return await runBuild(store, settings, {
      ...(changed !== undefined
        ? { pulledChanges: new Map(languages.map((lang) => [lang, changed[lang] ?? 0])) }
        : {}),
      ...(options.force ? { force: true } : {}),
      ...(options.onLine ? { onLine: options.onLine } : {}),
      ...(options.workers ? { workers: options.workers } : {}),
      ...(options.trace ? { trace: options.trace } : {}),
      ...(options.pagesFirst ? { pagesFirst: true } : {}),
    });
  } finally {
    if (!options.store) store.close();
  }
}

export interface ServeOptions {
  readonly settings: Settings;
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** @default 0 (a free port) */
  readonly port?: number;
}

export type ServeResult = StaticServer;

/** Serves settings.output over HTTP to look at the built sites; `close()` stops it. */
export async function serve(options: ServeOptions): Promise<ServeResult> {
  // Not through the site stage's entry point: on Node 22.5 and later an ES import of node:http
  // reads its lazy WebSocket export, which loads Node's own undici and with it http2 and tls
  // (test/integration/cli/bundled-cli.test.ts). Only `serve` and `watch` need a server.
  const { startStaticServer } = await import('../site/static-server.js');
  return startStaticServer(options.settings.output, {
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
  });
}
