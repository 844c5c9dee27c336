/**
 * What a restore puts back, worked out from its flags and the cache before the site is
 * contacted: a bad flag, an unknown item, a revision not in the backup, a time before the
 * kept history, a snapshot of another site — one line, exit 2, nothing sent.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError, UsageError } from '../errors.js';
import { openStore, type Store } from '../store/index.js';
import { requireBackupCache, requireHistorySince, requireSameSite } from '../diff/diff-checks.js';
import { parseTimeArg } from '../diff/time-arg.js';
import {
  parseItemArg,
  wantedAsOf,
  wantedBeforeLatest,
  wantedDeletedSince,
  wantedFromSnapshot,
  wantedRevision,
  type WantedSet,
} from './wanted.js';

export interface RestoreChoice {
  /** `posts/123`: put back as in `snapshot`, or as before its latest change. */
  readonly items?: readonly string[] | undefined;
  /** A `backup --to` file the items are taken from. */
  readonly snapshot?: string | undefined;
  /** With one item: roll its title, content and excerpt back to this revision. */
  readonly revision?: number | undefined;
  /** Put back every item trashed or deleted after TIME. */
  readonly deletedSince?: string | undefined;
  /** Every item changed since TIME goes back to its state at TIME. */
  readonly asOf?: string | undefined;
  /** With `asOf`: trash posts and pages created since TIME (files are only listed). */
  readonly removeNew?: boolean | undefined;
}

export type RestoreMode = 'item' | 'revision' | 'deleted-since' | 'as-of';

export function modeOf(choice: RestoreChoice): RestoreMode {
  const items = choice.items ?? [];
  const modes = [items.length > 0, choice.deletedSince !== undefined, choice.asOf !== undefined];
  if (modes.filter(Boolean).length !== 1) {
    throw new UsageError(
      'restore: give exactly one of --item TYPE/ID (repeatable), --deleted-since TIME or --as-of TIME',
    );
  }
  if (choice.removeNew === true && choice.asOf === undefined)
    throw new UsageError('restore: --remove-new goes with --as-of TIME');
  if (choice.snapshot !== undefined && items.length === 0)
    throw new UsageError('restore: --snapshot FILE goes with --item TYPE/ID');
  if (choice.revision !== undefined) {
    if (items.length !== 1 || choice.snapshot !== undefined)
      throw new UsageError('restore: --revision ID goes with exactly one --item and no --snapshot');
    if (!Number.isSafeInteger(choice.revision) || choice.revision < 1)
      throw new UsageError(`--revision: expected a revision id, got "${String(choice.revision)}"`);
    return 'revision';
  }
  if (items.length > 0) return 'item';
  return choice.deletedSince !== undefined ? 'deleted-since' : 'as-of';
}

/** The items wanted per language, every check done (throws before anything is sent). */
export function wantedByLanguage(
  cache: Store,
  languages: readonly string[],
  choice: RestoreChoice,
  now: Date,
): Map<string, WantedSet> {
  const mode = modeOf(choice);
  const items = (choice.items ?? []).map(parseItemArg);
  const time = choice.asOf ?? choice.deletedSince;
  const flag = choice.asOf !== undefined ? '--as-of' : '--deleted-since';
  const at = time === undefined ? undefined : parseTimeArg(time, now, flag);
  const out = new Map<string, WantedSet>();
  for (const lang of languages) requireBackupCache(cache, lang, 'cache', 'restore');
  if (choice.snapshot !== undefined) {
    const file = resolve(choice.snapshot);
    if (!existsSync(file)) throw new InputError(file, `--snapshot ${file}: no such file`);
    const snapshot = openStore(file, { readonly: true });
    try {
      for (const lang of languages) {
        requireBackupCache(snapshot, lang, 'snapshot', 'restore');
        requireSameSite(cache, snapshot, lang, 'restore puts back a state of the same site');
        out.set(lang, wantedFromSnapshot(snapshot, cache, lang, items));
      }
    } finally {
      snapshot.close();
    }
    return out;
  }
  for (const lang of languages) {
    if (at !== undefined) requireHistorySince(cache, lang, at, flag);
    const iso = at?.toISOString() ?? '';
    if (mode === 'as-of') out.set(lang, wantedAsOf(cache, lang, iso));
    else if (mode === 'deleted-since') out.set(lang, wantedDeletedSince(cache, lang, iso));
    else if (mode === 'revision')
      out.set(lang, wantedRevision(cache, lang, items[0]!, choice.revision!));
    else out.set(lang, wantedBeforeLatest(cache, lang, items));
  }
  return out;
}
