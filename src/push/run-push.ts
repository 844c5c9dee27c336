import { verifyCredentials, type BatchValidation } from '../client/index.js';
import { ConfigError, UsageError } from '../errors.js';
import { checkSettingsTransport, type Credentials, type Settings } from '../config/settings.js';
import { openStore, type Store } from '../store/index.js';
import { CHECKOUT_TYPES, type CheckoutType } from '../collections.js';
import { emptyPushSummary, sendQueuedEdits, type PushSummary } from './push.js';
import { KeptSessions } from './kept-sessions.js';
import { recordDeletes, recordFileEdits, type RecordEditsSummary } from './record-edits.js';
import { resolveConflict, writeRemoteCopies } from './remote-copies.js';
import { openSiteSession, PUSH_NEEDS, type SiteSession } from './site-session.js';

/**
 * The whole `push` as a library call: pick up changed checkout files, queue `--delete`
 * requests, then push everything queued. The CLI and `watch` both call this.
 */

export interface RunPushOptions {
  /** Checkout dir. @default settings.push.dir */
  readonly dir?: string;
  readonly dryRun?: boolean;
  readonly force?: boolean;
  /** @default settings.push.validation */
  readonly validation?: BatchValidation;
  /** Item ids to move to the trash (looked up in the cache among the languages). */
  readonly deleteIds?: readonly number[];
  /** Only these files were touched (watch); @default scan the whole checkout dir */
  readonly files?: readonly string[];
  /** @default true */
  readonly localEnumCheck?: boolean;
  /** An open store to use (watch keeps one); @default opens settings.cache */
  readonly store?: Store;
  /**
   * Checkout files whose conflict the user resolved (`push --resolve FILE`): their base moves
   * to the site's version in `FILE.remote.html`, so the file is sent against it.
   */
  readonly resolve?: readonly string[];
  /**
   * The files' edits, already recorded by the caller in this `store` (watch records them to
   * see whether anything is queued): not read and recorded a second time. @default recorded here
   */
  readonly recorded?: RecordEditsSummary;
  /**
   * Sessions the caller keeps open between pushes (watch): used, or opened and kept, and left
   * open. @default opened for this push and closed after it
   */
  readonly sessions?: KeptSessions;
}

export interface RunPushReport extends PushSummary {
  /** `<file>.remote.html` copies of the site's version written beside conflicting files. */
  remoteCopies: string[];
  /** Files whose front matter could not be read: nothing was sent. */
  fileProblems: { file: string; message: string }[];
  /** Edits recorded from files in this run. */
  recorded: number;
}

export async function runPush(
  settings: Settings,
  options: RunPushOptions = {},
): Promise<RunPushReport> {
  const credentials = requirePushCredentials(settings);
  if (!settings.site)
    throw new ConfigError('no site: give --site URL or "site:" in the pipeline file', {
      field: 'site',
    });
  const site = settings.site;
  const dir = options.dir ?? settings.push.dir;
  const store = options.store ?? openStore(settings.cache);
  // The caller's kept sessions are left open; this push's own are closed when it ends.
  const sessions = options.sessions ?? new KeptSessions();
  const runId = store.runs.start('push');
  try {
    const languages = settings.languages.length > 0 ? settings.languages : store.items.langs();
    for (const file of options.resolve ?? []) resolveConflict(store, file);
    const remoteCopies = writeRemoteCopies(store, languages);
    const recorded =
      options.recorded ??
      recordFileEdits({
        store,
        dir,
        languages,
        ...(options.files ? { files: options.files } : {}),
      });
    const report: RunPushReport = {
      ...emptyPushSummary(),
      fileProblems: recorded.problems.map((problem) => ({
        file: problem.file,
        message: problem.message,
      })),
      recorded: recorded.recorded.length,
      remoteCopies,
    };
    if (report.fileProblems.length > 0) {
      store.runs.finish(runId, 'failed', { invalid: report.fileProblems.length });
      return report;
    }
    if (options.deleteIds !== undefined && options.deleteIds.length > 0) {
      recordDeletes(store, resolveDeletes(store, languages, options.deleteIds));
    }
    const summary = await sendQueuedEdits({
      store,
      dir,
      languages,
      session: sessionOpener(settings, { site, credentials }, sessions),
      fileHashes: recorded.hashes,
      ...(options.force !== undefined ? { force: options.force } : {}),
      ...(options.dryRun !== undefined ? { dryRun: options.dryRun } : {}),
      validation: options.validation ?? settings.push.validation,
      ...(options.localEnumCheck !== undefined ? { localEnumCheck: options.localEnumCheck } : {}),
    });
    Object.assign(report, summary);
    store.runs.finish(runId, runStatus(summary), countersOf(report));
    return report;
  } catch (error) {
    store.runs.finish(runId, 'failed', {
      error: error instanceof Error ? error.message : String(error),
    });
    throw error;
  } finally {
    if (options.sessions === undefined) await sessions.forget();
    if (options.store === undefined) store.close();
  }
}

/** One site session per language, opened (and its credentials checked) on first use. */
function sessionOpener(
  settings: Settings,
  target: { readonly site: string; readonly credentials: Credentials },
  sessions: KeptSessions,
): (lang: string) => Promise<SiteSession> {
  const open = (lang: string): Promise<SiteSession> =>
    openSiteSession({
      site: target.site,
      lang,
      credentials: target.credentials,
      http: settings.http,
      needs: PUSH_NEEDS,
    }).then(async (opened) => {
      await verifyCredentials(opened.client, { names: settings.credentialNames });
      return opened;
    });
  return (lang) => sessions.get(lang, () => open(lang));
}

/** The run's recorded status: invalid edits fail it, conflicts and refusals make it partial. */
function runStatus(summary: PushSummary): 'failed' | 'partial' | 'ok' {
  if (summary.invalid.length > 0) return 'failed';
  return summary.conflicts.length + summary.failed.length > 0 ? 'partial' : 'ok';
}

/** Writing needs credentials; say which variables, never their values. */
export function requirePushCredentials(settings: Settings) {
  if (settings.credentials === undefined) {
    throw new ConfigError(
      `writing to the site needs credentials: set ${settings.credentialNames.user} and ${settings.credentialNames.password} (an application password)`,
      { field: settings.credentialNames.user },
    );
  }
  // Before any edit is recorded or any connection made.
  checkSettingsTransport(settings);
  return settings.credentials;
}

/** The machine-readable summary `--json` prints. */
export function countersOf(report: RunPushReport): Record<string, number> {
  return {
    sent: report.sent,
    batches: report.batches,
    created: report.created,
    updated: report.updated,
    trashed: report.trashed,
    conflicts: report.conflicts.length,
    failed: report.failed.length,
    pending: report.pending,
    invalid: report.invalid.length + report.fileProblems.length,
  };
}

/** `--delete 12,13`: each id must name exactly one cached post or page among the languages. */
function resolveDeletes(
  store: Store,
  languages: readonly string[],
  ids: readonly number[],
): { lang: string; type: CheckoutType; id: number }[] {
  return ids.map((id) => {
    const found: { lang: string; type: CheckoutType; id: number }[] = [];
    for (const lang of languages) {
      for (const type of CHECKOUT_TYPES) {
        if (store.items.get(lang, type, id) !== undefined) found.push({ lang, type, id });
      }
    }
    if (found.length === 0)
      throw new UsageError(`--delete ${id}: no post or page ${id} in the cache (pull first)`);
    if (found.length > 1) {
      throw new UsageError(
        `--delete ${id}: item ${id} exists in ${found.map((f) => `${f.lang}/${f.type}`).join(' and ')}; give --lang`,
      );
    }
    return found[0]!;
  });
}
