/**
 * What `diff` refuses before comparing anything (exit 2, one line): a cache not pulled with
 * credentials in `--backup` mode (without them a deleted item and an unpublished one look the
 * same: both are just missing), a snapshot of another site, a time the kept history does not
 * cover.
 */
import { InputError, UsageError } from '../errors.js';
import { ITEM_TYPES, type Run, type Store } from '../store/index.js';

/** Finished pulls (ok or partial), newest first. */
function finishedPulls(store: Store): Run[] {
  return store.runs
    .list({ command: 'pull' })
    .filter((run) => run.status === 'ok' || run.status === 'partial');
}

function keptHistory(run: Run): boolean {
  return run.counters?.['backup'] === true;
}

/**
 * The cache's last finished pull was a `--backup` pull, and every collection of `lang` was
 * pulled in edit context (with credentials).
 */
export function requireBackupCache(
  store: Store,
  lang: string,
  role = 'cache',
  command = 'diff',
): void {
  const file = store.file;
  const last = finishedPulls(store)[0];
  if (last === undefined) {
    throw new InputError(
      file,
      `the ${role} ${file} holds no finished pull: ${command} needs a cache pulled with credentials and --backup`,
    );
  }
  if (!keptHistory(last)) {
    throw new InputError(
      file,
      `the ${role} ${file} was last pulled without --backup (pull #${last.id}, ${last.startedAt}): ${command} needs a cache pulled with credentials in --backup mode, where deleted and unpublished items can be told apart; run cms-mirror pull --backup`,
    );
  }
  for (const type of ITEM_TYPES) {
    const state = store.syncState.get(lang, type);
    if (state === undefined) {
      throw new InputError(file, `the ${role} ${file} holds no pull of language ${lang} (${type})`);
    }
    if (state.context !== 'edit') {
      throw new InputError(
        file,
        `the ${role} ${file} holds ${lang} ${type} pulled without credentials: ${command} needs a cache pulled with credentials in --backup mode`,
      );
    }
  }
}

/** The site a cache mirrors for `lang`: the `url` (or `home`) its pull stored from the index. */
export function siteOf(store: Store, lang: string): string | undefined {
  const data = store.siteInfo.get(lang)?.data;
  if (data === null || typeof data !== 'object') return undefined;
  const record = data as Record<string, unknown>;
  const url = record['url'] ?? record['home'];
  return typeof url === 'string' ? url.replace(/\/+$/, '') : undefined;
}

/** The snapshot mirrors the same site as the cache (for `lang`). */
export function requireSameSite(
  cache: Store,
  snapshot: Store,
  lang: string,
  purpose = 'diff compares two states of one site',
): void {
  const ours = siteOf(cache, lang);
  const theirs = siteOf(snapshot, lang);
  if (ours === undefined || theirs === undefined || ours !== theirs) {
    throw new InputError(
      snapshot.file,
      `the snapshot ${snapshot.file} is of ${theirs ?? 'an unknown site'} (${lang}), the cache ${cache.file} of ${ours ?? 'an unknown site'}: ${purpose}`,
    );
  }
}

/**
 * The kept history of `lang` covers everything since `at`: it starts at or before it, and no
 * pull without `--backup` finished after it (such a pull stored changes the history lacks).
 */
export function requireHistorySince(store: Store, lang: string, at: Date, flag = '--since'): void {
  const start = store.itemVersions.historyStart(lang);
  const iso = at.toISOString();
  if (start === undefined) {
    throw new UsageError(
      `${flag}: the cache ${store.file} keeps no history of ${lang} yet (its --backup pulls keep it)`,
    );
  }
  if (iso < start.startedAt) {
    throw new UsageError(
      `${flag} ${iso} is before the cache's first --backup pull (#${start.runId}, ${start.startedAt}), where its kept history starts; give a later time`,
    );
  }
  const gap = finishedPulls(store).find(
    (run) => !keptHistory(run) && run.finishedAt !== null && run.finishedAt > iso,
  );
  if (gap !== undefined) {
    throw new UsageError(
      `${flag} ${iso}: pull #${gap.id} (${gap.startedAt}) ran without --backup and kept no history; give a time after ${gap.finishedAt ?? gap.startedAt}`,
    );
  }
}
