import type { Settings } from '../config/settings.js';
import type { KeptSessions } from '../push/kept-sessions.js';
import { locateCheckoutFile, recordFileEdits, runPush, type RunPushReport } from '../push/index.js';
import { openStore } from '../store/index.js';

/**
 * What a batch of saved checkout files does: its edits are recorded in the cache, and with
 * `--push` sent to the site. Each opens the cache for its own run and closes it after.
 */

/** Records the files' edits; nothing reaches the cache's items, so nothing to rebuild. */
export function recordFiles(
  settings: Settings,
  dir: string,
  files: readonly string[],
  onLine: (line: string) => void,
): undefined {
  const store = openStore(settings.cache);
  try {
    const recorded = recordFileEdits({ store, dir, files, ...languagesOf(settings) });
    for (const problem of recorded.problems) onLine(problem.message);
    if (recorded.recorded.length > 0 || recorded.problems.length > 0)
      onLine(`recorded ${recorded.recorded.length} edit(s), ${recorded.unchanged} unchanged`);
  } finally {
    store.close();
  }
  return undefined;
}

/**
 * Records and pushes; returns the items written per language (for the rebuild). `sessions`
 * are the watch's, kept between pushes; forgotten after a push that threw (the site down, the
 * credentials refused...), so that the next push reads the site's index and checks them again.
 */
export async function pushFiles(
  settings: Settings,
  dir: string,
  files: readonly string[],
  onLine: (line: string) => void,
  sessions?: KeptSessions,
): Promise<Map<string, number>> {
  const store = openStore(settings.cache);
  try {
    // A file push itself rewrote (the site's version, already recorded as the base) is
    // not an edit: no push run, no line, when nothing is queued.
    const recorded = recordFileEdits({ store, dir, files, ...languagesOf(settings) });
    const queued =
      store.edits.list({ state: 'pending' }).length + store.edits.list({ state: 'failed' }).length;
    if (recorded.problems.length === 0 && queued === 0) return new Map();
    let report: RunPushReport;
    try {
      // The edits just recorded are what runPush would record again from the same files.
      report = await runPush(settings, {
        ...{ dir, files, store, recorded },
        ...(sessions ? { sessions } : {}),
      });
    } catch (error) {
      await sessions?.forget();
      throw error;
    }
    onLine(describePush(report));
    const written = report.created + report.updated + report.trashed;
    const changes = new Map<string, number>();
    if (written === 0) return changes;
    for (const file of files) {
      const place = locateCheckoutFile(dir, file);
      if (place) changes.set(place.lang, written);
    }
    return changes;
  } finally {
    store.close();
  }
}

function languagesOf(settings: Settings): { languages?: readonly string[] } {
  return settings.languages.length > 0 ? { languages: settings.languages } : {};
}

function describePush(report: RunPushReport): string {
  if (report.fileProblems.length + report.invalid.length > 0) {
    const lines = [
      ...report.fileProblems.map((p) => p.message),
      ...report.invalid.map((p) => `${p.file}: ${p.message}`),
    ];
    return `${lines.join('\n')}\nnothing sent`;
  }
  const parts = [
    `pushed: ${report.updated} updated, ${report.created} created, ${report.trashed} trashed`,
  ];
  for (const conflict of report.conflicts) parts.push(`conflict: ${conflict.message}`);
  for (const failure of report.failed)
    parts.push(`failed: ${failure.label}: ${failure.code}: ${failure.message}`);
  return parts.join('\n');
}
