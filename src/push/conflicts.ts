/**
 * Conflict detection: an edit is based on the item as it was at checkout (`base`); if the
 * site's `modified_gmt` is no longer that, someone else changed the item and writing ours
 * would silently overwrite their work. Pure; fetching the remote values is the runner's job.
 */

export interface EditBase {
  readonly ref: string;
  readonly id: number;
  /** `modified_gmt` recorded at checkout; undefined = unknown (treated as a conflict). */
  readonly base: string | undefined;
}

export interface Conflict {
  readonly ref: string;
  readonly id: number;
  readonly base: string | undefined;
  /** The site's current `modified_gmt`; undefined when the item is gone (deleted or trashed). */
  readonly remote: string | undefined;
  readonly reason: 'changed' | 'gone' | 'no-base';
}

/** Edits whose item changed on the site since checkout, or no longer exists there. */
export function findConflicts(
  edits: readonly EditBase[],
  remote: ReadonlyMap<number, string>,
): Conflict[] {
  const conflicts: Conflict[] = [];
  for (const edit of edits) {
    const current = remote.get(edit.id);
    if (current === undefined) {
      conflicts.push({ ...edit, remote: undefined, reason: 'gone' });
    } else if (edit.base === undefined) {
      conflicts.push({ ...edit, remote: current, reason: 'no-base' });
    } else if (normaliseGmt(current) !== normaliseGmt(edit.base)) {
      conflicts.push({ ...edit, remote: current, reason: 'changed' });
    }
  }
  return conflicts;
}

/** Splits ids for `include=` look-ups (the list route's `per_page` maximum bounds one page). */
export function chunkIds(ids: readonly number[], size: number): number[][] {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`chunk size must be a whole number ≥ 1, got ${size}`);
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const chunks: number[][] = [];
  for (let start = 0; start < unique.length; start += size)
    chunks.push(unique.slice(start, start + size));
  return chunks;
}

/** Where the site's version of a conflicting checkout file is (or will be) written. */
export interface RemoteCopyHint {
  /** The user's checkout file. */
  readonly file: string;
  /** `<file>.remote.html`. */
  readonly copy: string;
  /** Whether the copy is there now (a pull brought the site's version in). */
  readonly exists: boolean;
}

/** What to do about a conflict on a checkout file, step by step. */
export function resolveSteps(hint: RemoteCopyHint): string {
  const resolve = `then "cms-mirror push --resolve ${hint.file}" sends your version`;
  return hint.exists
    ? `the site's version is in ${hint.copy}: merge what you want to keep into your file, ${resolve} (or push --force to overwrite the site's version)`
    : `run "cms-mirror pull" and push again: the site's version is then written beside your file as ${hint.copy}; merge what you want to keep into your file, ${resolve} (or push --force to overwrite the site's version)`;
}

/** One conflict as a line for the user: what, and what to do. */
export function describeConflict(conflict: Conflict, label: string, hint?: RemoteCopyHint): string {
  switch (conflict.reason) {
    case 'gone':
      return `${label}: item ${conflict.id} no longer exists on the site (deleted or trashed); your edit is kept`;
    case 'no-base':
      return `${label}: no checkout base recorded for item ${conflict.id}; check it out again or push with --force`;
    case 'changed':
      return hint === undefined
        ? `${label}: changed on the site since checkout (base ${conflict.base}, now ${conflict.remote}); your edit is kept — pull and merge, or push with --force`
        : `${label}: changed on the site since checkout (base ${conflict.base}, now ${conflict.remote}); your edit is kept — ${resolveSteps(hint)}`;
  }
}

function normaliseGmt(value: string): string {
  return value.replace(/\.\d+/, '').replace(/(?:Z|\+00:00)$/, '');
}
