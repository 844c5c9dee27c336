import path from 'node:path';
import { rmSync } from 'node:fs';
import type { CmsItem, Edit } from '../store/index.js';
import { readTextIfExists, textHash, writeFileAtomic } from './atomic-file.js';
import { siteError, type SubOutcome } from './batch-result.js';
import {
  checkoutPath,
  fieldsFromItem,
  parseCheckout,
  serializeCheckout,
  type CheckoutType,
} from './checkout-file.js';
import type { PushOptions, PushSummary } from './push.js';
import { isTrash, labelOf } from './queued-edit.js';

/**
 * What the site answered to one write, recorded: a failure stays queued (or fails) with its
 * reason; a success updates the cached item, marks the edit done and makes the item's
 * checkout file (or its checkout record) show the site's version as the new base.
 */
export function recordOutcome(
  options: PushOptions,
  summary: PushSummary,
  edit: Edit,
  outcome: SubOutcome,
): void {
  const { store } = options;
  if (!outcome.ok) {
    const error = `${outcome.code}: ${outcome.message}`;
    if (outcome.notRun) store.edits.update(edit.id, { state: 'pending', error });
    else {
      store.edits.update(edit.id, { state: 'failed', error });
      summary.failed.push({
        edit: edit.id,
        label: labelOf(edit),
        code: outcome.code,
        message: outcome.message,
      });
    }
    return;
  }
  const type = edit.type as CheckoutType;
  const item = itemOf(outcome.item);
  if (item === undefined) {
    const { code, message } = siteError(outcome.item, outcome.status);
    store.edits.update(edit.id, {
      state: 'failed',
      error: `${code}: the site answered without the item (${message})`,
    });
    summary.failed.push({
      edit: edit.id,
      label: labelOf(edit),
      code,
      message: 'the site answered without the item',
    });
    return;
  }
  const context = hasRaw(item) ? 'edit' : 'view';
  const modified = typeof item.modified_gmt === 'string' ? item.modified_gmt : null;
  store.transaction(() => {
    store.items.upsertPage(edit.lang, type, [item], { context });
    store.edits.update(edit.id, {
      state: 'done',
      error: null,
      itemId: item.id,
      baseModifiedGmt: modified,
    });
  });
  if (edit.itemId === null) summary.created += 1;
  else if (isTrash(edit)) summary.trashed += 1;
  else summary.updated += 1;
  if (options.dir !== undefined) syncFile(options, edit, type, item, modified);
  else if (store.checkouts.get(edit.lang, type, item.id) !== undefined) {
    const checkout = store.checkouts.get(edit.lang, type, item.id)!;
    store.checkouts.set({ ...checkout, baseModifiedGmt: modified });
  }
}

/**
 * After a successful write, the item's file shows the site's version and is recorded as the
 * new base. A file the user changed again since it was read is not overwritten (it stays an
 * edit for the next push); a new item's file gets its id and its `{id}-{slug}.html` name.
 */
function syncFile(
  options: PushOptions,
  edit: Edit,
  type: CheckoutType,
  item: CmsItem,
  modified: string | null,
): void {
  const { store } = options;
  const dir = options.dir!;
  const previous = store.checkouts.get(edit.lang, type, item.id);
  const oldFile = edit.file ?? previous?.file;
  const slug = typeof item.slug === 'string' ? item.slug : '';
  const target =
    edit.itemId === null || oldFile === undefined
      ? checkoutPath(dir, { lang: edit.lang, type, id: item.id, slug })
      : oldFile;
  const serverText = serializeCheckout({
    id: item.id,
    type,
    lang: edit.lang,
    fields: fieldsFromItem(item, type),
  });
  const current = oldFile === undefined ? undefined : readTextIfExists(oldFile);
  const readHash =
    oldFile === undefined ? undefined : options.fileHashes?.get(path.resolve(oldFile));
  const untouched = current === undefined || readHash === undefined || current.hash === readHash;
  let text = serverText;
  if (!untouched && current !== undefined) {
    // Edited again meanwhile: keep the user's newest text (with its new id for a create).
    const doc = parseCheckout(current.text, oldFile!, { type, lang: edit.lang });
    text = serializeCheckout({ ...doc, id: item.id });
  }
  writeFileAtomic(target, text);
  store.checkouts.set({
    lang: edit.lang,
    type,
    id: item.id,
    file: target,
    baseModifiedGmt: modified,
    fileHash: textHash(serverText),
  });
  if (oldFile !== undefined && path.resolve(oldFile) !== path.resolve(target))
    rmSync(oldFile, { force: true });
}

function itemOf(body: Readonly<Record<string, unknown>>): CmsItem | undefined {
  // DELETE with force answers {deleted, previous}; without force (trash) the item itself.
  const candidate =
    typeof body.previous === 'object' && body.previous !== null && body.id === undefined
      ? body.previous
      : body;
  const record = candidate as Record<string, unknown>;
  return typeof record.id === 'number' && Number.isInteger(record.id) && record.id > 0
    ? (record as CmsItem)
    : undefined;
}

function hasRaw(item: CmsItem): boolean {
  const content = item.content as { raw?: unknown } | undefined;
  return typeof content?.raw === 'string';
}
