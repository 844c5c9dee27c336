import type { Settings } from '../config/index.js';
import type {
  CheckoutSummary,
  CheckoutType,
  RunPushOptions,
  RunPushReport,
} from '../push/index.js';

export interface CheckoutOptions {
  readonly settings: Settings;
  /** Where files go: `{dir}/{lang}/{type}/{id}-{slug}.html`. @default settings.push.dir */
  readonly dir?: string;
  /** @default every collection that can be checked out (`CHECKOUT_TYPES` of the registry) */
  readonly types?: readonly CheckoutType[];
}

export interface CheckoutResult extends CheckoutSummary {
  readonly dir: string;
  /** `<file>.remote.html`: the site's version of items edited in their files, for a merge. */
  readonly remoteCopies: string[];
}

/**
 * One editable file per cached post and page (front matter + HTML) of settings' languages,
 * else of every cached one; a file edited since its checkout is kept (`cms-mirror checkout`).
 */
export async function checkout(options: CheckoutOptions): Promise<CheckoutResult> {
  const [push, { openStore }] = await Promise.all([
    import('../push/index.js'),
    import('../store/index.js'),
  ]);
  const { settings } = options;
  const dir = options.dir ?? settings.push.dir;
  const store = openStore(settings.cache);
  try {
    const languages = settings.languages.length > 0 ? settings.languages : store.items.langs();
    const runId = store.runs.start('checkout');
    const summary = push.checkout({
      store,
      dir,
      languages,
      ...(options.types ? { types: options.types } : {}),
    });
    const remoteCopies = push.writeRemoteCopies(store, languages);
    store.runs.finish(runId, 'ok', {
      written: summary.written,
      unchanged: summary.unchanged,
      kept: summary.keptLocal.length,
    });
    return { ...summary, dir, remoteCopies };
  } finally {
    store.close();
  }
}

export interface PushOptions extends Omit<RunPushOptions, 'store' | 'files' | 'localEnumCheck'> {
  readonly settings: Settings;
}

export type PushResult = RunPushReport;

/** Sends changed checkout files and queued edits to the site (`cms-mirror push`). */
export async function push(options: PushOptions): Promise<PushResult> {
  const { runPush } = await import('../push/index.js');
  const { settings, ...rest } = options;
  return runPush(settings, rest);
}

export interface WatchOptions {
  readonly settings: Settings;
  /** The checkout dir (must exist). @default settings.push.dir */
  readonly dir?: string;
  /** Push each batch of saved edits (else only record them). @default false */
  readonly push?: boolean;
  /** Rebuild the output after pushed, pulled or template changes. @default true */
  readonly build?: boolean;
  /** Pull every this many ms; a pull that changed items rebuilds. @default never */
  readonly pullEveryMs?: number;
  readonly onLine: (line: string) => void;
  /** Stops the watch; the returned promise resolves once the running step has finished. */
  readonly signal: AbortSignal;
}

/** Watches checked-out files and the theme until `signal` aborts (`cms-mirror watch`). */
export async function watch(options: WatchOptions): Promise<void> {
  const [{ requirePushCredentials }, { watchCheckouts }] = await Promise.all([
    import('../push/index.js'),
    import('../watch/index.js'),
  ]);
  const { settings } = options;
  if (options.push) requirePushCredentials(settings);
  await watchCheckouts({
    settings,
    dir: options.dir ?? settings.push.dir,
    ...(options.push ? { push: true } : {}),
    ...(options.build === false ? { rebuild: false as const } : {}),
    ...(options.pullEveryMs !== undefined ? { pullEveryMs: options.pullEveryMs } : {}),
    onLine: options.onLine,
    signal: options.signal,
  });
}
