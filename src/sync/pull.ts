/**
 * `pull`: mirror every configured language of the site into the cache. Opens the cache,
 * records the run in `runs`, runs the languages concurrently (one client each), and returns
 * the summary the CLI prints.
 */
import { clientOptionsFor } from '../client/settings-options.js';
import { CmsClient } from '../client/index.js';
import { requireSite, type Settings } from '../config/settings.js';
import { ConfigError } from '../errors.js';
import { openStore, type Store } from '../store/index.js';
import { MediaFetcher } from './media-fetcher.js';
import { prepareLanguage, pullLanguage, type PreparedLanguage } from './pull-language.js';
import { settleAll } from './settle-all.js';
import {
  emptyCounters,
  roundSeconds,
  sumCounters,
  type PullCounters,
  type PullEvent,
  type PullSummary,
} from './pull-summary.js';

export interface PullOptions {
  /**
   * Also mirror revisions and autosaves of changed posts and pages (needs credentials).
   * @default settings.backup
   */
  readonly backup?: boolean;
  /** Receives progress and warnings while the pull runs. @default undefined */
  readonly onProgress?: (event: PullEvent) => void;
  /** Stops the pull between requests; what was committed stays (the next pull resumes). */
  readonly signal?: AbortSignal;
  /**
   * The cache to pull into, given by the caller's function when the pull first needs it (once
   * the site's checks have passed, so that a wrong URL or password still leaves no file) and
   * left open for the caller to close: a `run` builds through the same connection.
   * @default settings.cache, opened then and closed when the pull ends
   */
  readonly cache?: () => Store;
}

export async function pull(settings: Settings, options: PullOptions = {}): Promise<PullSummary> {
  const { site, languages } = requireSite(settings);
  const backup = options.backup ?? settings.backup;
  if (backup && settings.credentials === undefined) {
    throw new ConfigError(
      `backup mode mirrors revisions and autosaves, which the site shows only to signed-in users: set ${settings.credentialNames.user} and ${settings.credentialNames.password} (an application password), or pull without --backup`,
      { field: 'backup' },
    );
  }
  const emit = options.onProgress ?? (() => undefined);
  const clients = new Map(
    languages.map((lang) => [lang, new CmsClient(clientOptionsFor(settings, site, lang))]),
  );
  const started = Date.now();
  try {
    // Before the cache is opened: a wrong URL, password or role leaves no file behind.
    const prepared = new Map<string, PreparedLanguage>();
    await settleAll(
      languages.map(async (lang) => {
        const client = clients.get(lang) as CmsClient;
        prepared.set(
          lang,
          await prepareLanguage(client, { backup, credentialNames: settings.credentialNames }),
        );
      }),
    );
    return await pullPrepared(settings, { ...options, backup, emit, clients, prepared, started });
  } finally {
    await Promise.all([...clients.values()].map((client) => client.close()));
  }
}

interface PreparedPull {
  readonly backup: boolean;
  readonly emit: (event: PullEvent) => void;
  readonly signal?: AbortSignal | undefined;
  readonly clients: ReadonlyMap<string, CmsClient>;
  readonly prepared: ReadonlyMap<string, PreparedLanguage>;
  readonly started: number;
  readonly cache?: (() => Store) | undefined;
}

/** Opens the cache, records the run in `runs` and pulls every language (checked already). */
async function pullPrepared(settings: Settings, run: PreparedPull): Promise<PullSummary> {
  const { backup, emit, started } = run;
  const store = run.cache ? run.cache() : openStore(settings.cache);
  try {
    const runId = store.runs.start('pull');
    const media = new MediaFetcher(store, {
      allowedOrigins: settings.media.allowedOrigins,
      maxBytes: settings.media.maxBytes,
    });
    const perLanguage: Record<string, PullCounters> = {};
    const runLanguage = async (lang: string): Promise<void> => {
      const counters = emptyCounters();
      perLanguage[lang] = counters;
      const languageStart = Date.now();
      const client = run.clients.get(lang) as CmsClient;
      try {
        await pullLanguage({
          prepared: run.prepared.get(lang) as PreparedLanguage,
          client,
          store,
          lang,
          backup,
          historyRun: backup ? runId : undefined,
          media,
          counters,
          emit,
          signal: run.signal,
          fullSweepEvery: settings.pull.fullSweepEvery,
        });
      } finally {
        counters.requests = client.stats.requests;
        counters.seconds = roundSeconds(Date.now() - languageStart);
      }
    };
    const summary = (): PullSummary => {
      const total = sumCounters(Object.values(perLanguage));
      total.seconds = roundSeconds(Date.now() - started);
      return {
        languages: perLanguage,
        total,
        status: total.errors > 0 ? 'partial' : 'ok',
        runId,
      };
    };
    try {
      await settleAll(settings.languages.map(runLanguage));
    } catch (error) {
      const failed = summary();
      store.runs.finish(runId, 'failed', {
        languages: failed.languages,
        total: failed.total,
        error: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
    const result = summary();
    store.runs.finish(runId, result.status, {
      languages: result.languages,
      total: result.total,
      backup,
    });
    return result;
  } finally {
    if (!run.cache) store.close();
  }
}
