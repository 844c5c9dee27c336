import { readdirSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';
import type { Edit, Store } from '../store/index.js';
import { readTextIfExists } from './atomic-file.js';
import {
  CHECKOUT_TYPES,
  fieldsFromItem,
  locateCheckoutFile,
  parseCheckout,
  type CheckoutType,
} from './checkout-file.js';
import { changedFields } from './edit-diff.js';
import { isRemoteCopy } from './remote-copies.js';

/**
 * Turns changed checkout files into `edits` rows (the push queue): an update with only the
 * changed fields, a create for a file without `id`, a trash for `status: trash`. One open
 * edit per file: saving again replaces its fields; reverting the file drops it.
 */

export interface RecordEditsOptions {
  readonly store: Store;
  readonly dir: string;
  /** Only these languages' folders. @default every language folder under `dir` */
  readonly languages?: readonly string[];
  /** Only these files (what `watch` saw change). @default every item file under `dir` */
  readonly files?: readonly string[];
}

export interface RecordEditsSummary {
  /** Edits queued or refreshed, by file. */
  readonly recorded: Edit[];
  /** Files equal to their checkout (or to the cached item). */
  unchanged: number;
  /** Files that could not be read as item files: nothing is queued for them. */
  readonly problems: InputError[];
  /** The hash of each file as read, so a later rewrite can tell whether it changed meanwhile. */
  readonly hashes: Map<string, string>;
}

/** The marker a trash request is queued with (`fields`), for edits from files and from `--delete`. */
export const TRASH_FIELDS = Object.freeze({ status: 'trash' });

export function recordFileEdits(options: RecordEditsOptions): RecordEditsSummary {
  const { store } = options;
  const dir = path.resolve(options.dir);
  const files =
    options.files?.map((file) => path.resolve(file)) ?? listItemFiles(dir, options.languages);
  const open = new Map<string, Edit>();
  for (const edit of [
    ...store.edits.list({ state: 'pending' }),
    ...store.edits.list({ state: 'failed' }),
  ]) {
    if (edit.file !== null) open.set(edit.file, edit);
  }
  const summary: RecordEditsSummary = {
    recorded: [],
    unchanged: 0,
    problems: [],
    hashes: new Map(),
  };
  for (const file of files) {
    // The site's version beside a conflicting file is for reading, never an edit.
    if (isRemoteCopy(file)) continue;
    const place = locateCheckoutFile(dir, file);
    if (place === undefined) continue;
    if (options.languages !== undefined && !options.languages.includes(place.lang)) continue;
    const read = readTextIfExists(file);
    if (read === undefined) continue;
    summary.hashes.set(file, read.hash);
    const existing = open.get(file);
    const checkout = store.checkouts.getByFile(file);
    if (checkout !== undefined && checkout.fileHash === read.hash) {
      if (existing !== undefined) store.edits.remove(existing.id);
      summary.unchanged += 1;
      continue;
    }
    let doc;
    try {
      doc = parseCheckout(read.text, file, place);
    } catch (error) {
      if (error instanceof InputError) {
        summary.problems.push(error);
        continue;
      }
      throw error;
    }
    const { fields: local, lang, type } = doc;
    // A new file whose create already went through (the run stopped before renaming it):
    // it is that item now, never a second create.
    const id = doc.id ?? existing?.itemId ?? undefined;
    let body: Record<string, unknown>;
    let base: string | null = null;
    if (id === undefined) {
      body = { ...local };
    } else if (local.status === 'trash') {
      body = { ...TRASH_FIELDS };
      base = store.checkouts.get(lang, type, id)?.baseModifiedGmt ?? null;
    } else {
      const cached = store.items.get(lang, type, id);
      const baseFields = cached
        ? fieldsFromItem(JSON.parse(cached.json) as Record<string, unknown>, type)
        : {};
      body = changedFields(baseFields, local);
      base = store.checkouts.get(lang, type, id)?.baseModifiedGmt ?? cached?.modifiedGmt ?? null;
    }
    if (id !== undefined && Object.keys(body).length === 0) {
      if (existing !== undefined) store.edits.remove(existing.id);
      summary.unchanged += 1;
      continue;
    }
    const edit = upsertEdit(store, existing, {
      lang,
      type,
      itemId: id ?? null,
      file,
      fields: body,
      baseModifiedGmt: base,
    });
    summary.recorded.push(edit);
  }
  return summary;
}

/** Queues trash requests for ids given on the command line (`--delete 12,13`). */
export function recordDeletes(
  store: Store,
  requests: readonly { lang: string; type: CheckoutType; id: number }[],
): Edit[] {
  return requests.map(({ lang, type, id }) => {
    const open = store.edits.list({ lang, type, itemId: id }).find((edit) => edit.state !== 'done');
    const base =
      store.checkouts.get(lang, type, id)?.baseModifiedGmt ??
      store.items.get(lang, type, id)?.modifiedGmt ??
      null;
    return upsertEdit(store, open, {
      lang,
      type,
      itemId: id,
      file: open?.file ?? null,
      fields: TRASH_FIELDS,
      baseModifiedGmt: base,
    });
  });
}

function upsertEdit(
  store: Store,
  existing: Edit | undefined,
  input: {
    lang: string;
    type: CheckoutType;
    itemId: number | null;
    file: string | null;
    fields: Record<string, unknown>;
    baseModifiedGmt: string | null;
  },
): Edit {
  if (existing === undefined) return store.edits.add(input);
  const updated = store.edits.update(existing.id, {
    fields: input.fields,
    itemId: input.itemId,
    baseModifiedGmt: input.baseModifiedGmt,
    state: 'pending',
    error: null,
  });
  if (updated === undefined) throw new Error(`edit ${existing.id} vanished while being updated`);
  return updated;
}

/** `{dir}/{lang}/{posts|pages}/*.html`, sorted, skipping hidden and temporary files. */
export function listItemFiles(dir: string, languages?: readonly string[]): string[] {
  const files: string[] = [];
  for (const lang of languages ?? safeList(dir)) {
    for (const type of CHECKOUT_TYPES) {
      const folder = path.join(dir, lang, type);
      for (const name of safeList(folder)) {
        if (name.endsWith('.html') && !name.startsWith('.') && !isRemoteCopy(name))
          files.push(path.join(folder, name));
      }
    }
  }
  return files;
}

function safeList(folder: string): string[] {
  try {
    return readdirSync(folder).sort();
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code === 'ENOENT' ||
      (error as NodeJS.ErrnoException).code === 'ENOTDIR'
    )
      return [];
    throw error;
  }
}
