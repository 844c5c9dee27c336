import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { openStore, type Checkout, type Store } from '../store/index.js';
import { readTextIfExists, writeFileAtomic } from './atomic-file.js';
import { fieldsFromItem, serializeCheckout, type CheckoutType } from './checkout-file.js';

/**
 * Resolving a conflict without `--force`. When the cache holds a newer version of an item
 * than the one a locally edited checkout file was based on (someone changed it on the site,
 * and a pull brought that in), the site's version is written beside the file as
 * `<name>.remote.html`. While that copy exists the item still conflicts (its base is the old
 * version), so push refuses it. `push --resolve FILE` says the user's file now holds what
 * should win: the checkout's base moves to the version in the copy, the copy goes, and the
 * user's version is sent against that base (a site that moved again conflicts again).
 */

export const REMOTE_COPY_SUFFIX = '.remote.html';

/** `12-hello.html` → `12-hello.remote.html`. */
export function remoteCopyOf(file: string): string {
  return `${file.replace(/\.html$/, '')}${REMOTE_COPY_SUFFIX}`;
}

export function isRemoteCopy(file: string): boolean {
  return file.endsWith(REMOTE_COPY_SUFFIX);
}

/** The file text of the cached version of a checked-out item, or undefined when not cached. */
function cachedText(store: Store, checkout: Checkout): string | undefined {
  const cached = store.items.get(checkout.lang, checkout.type, checkout.id);
  if (cached === undefined || cached.deletedAt !== null) return undefined;
  const type = checkout.type as CheckoutType;
  return serializeCheckout({
    id: checkout.id,
    type,
    lang: checkout.lang,
    fields: fieldsFromItem(JSON.parse(cached.json) as Record<string, unknown>, type),
  });
}

/**
 * Writes (or refreshes) `<file>.remote.html` beside every locally edited checkout file whose
 * item moved in the cache since its checkout. Returns the copies written. Unedited files are
 * `checkout`'s to refresh; nothing here touches the user's files.
 */
export function writeRemoteCopies(store: Store, languages?: readonly string[]): string[] {
  const written: string[] = [];
  // Only the checkouts whose item moved in the cache, in one query (every push asks this).
  for (const checkout of store.checkouts.movedSinceCheckout()) {
    if (languages !== undefined && !languages.includes(checkout.lang)) continue;
    const local = readTextIfExists(checkout.file);
    if (local === undefined || local.hash === checkout.fileHash) continue;
    const text = cachedText(store, checkout);
    if (text === undefined) continue;
    const copy = remoteCopyOf(checkout.file);
    if (readTextIfExists(copy)?.text === text) continue;
    writeFileAtomic(copy, text);
    written.push(copy);
  }
  return written;
}

/**
 * `push --resolve FILE`: the checkout's base becomes the version in `FILE.remote.html` (the
 * cached one), and the copy is removed.
 * @throws {UsageError} when FILE is not a checked-out file, has no remote copy, or the copy
 *   is out of date (it is refreshed then: look at it again).
 */
export function resolveConflict(store: Store, file: string): void {
  const absolute = path.resolve(file);
  const checkout = store.checkouts.getByFile(absolute);
  if (checkout === undefined)
    throw new UsageError(`--resolve ${file}: not a file "checkout" wrote (see the checkout dir)`);
  const copy = remoteCopyOf(absolute);
  if (!existsSync(copy)) {
    throw new UsageError(
      `--resolve ${file}: no ${path.basename(copy)} beside it; it is written when a pull brings a newer version of an item you edited (run "cms-mirror pull" first)`,
    );
  }
  const text = cachedText(store, checkout);
  const cached = store.items.get(checkout.lang, checkout.type, checkout.id);
  if (text === undefined || cached?.modifiedGmt == null)
    throw new UsageError(`--resolve ${file}: ${checkout.type} ${checkout.id} is not in the cache`);
  if (readTextIfExists(copy)?.text !== text) {
    writeFileAtomic(copy, text);
    throw new UsageError(
      `--resolve ${file}: the site's version changed again; ${path.basename(copy)} now holds it: merge again, then push --resolve`,
    );
  }
  store.checkouts.set({ ...checkout, file: absolute, baseModifiedGmt: cached.modifiedGmt });
  rmSync(copy, { force: true });
}

/** `writeRemoteCopies` on a cache file, for commands that do not hold it open (pull). */
export function writeRemoteCopiesIn(cacheFile: string, languages?: readonly string[]): string[] {
  if (!existsSync(cacheFile)) return [];
  const store = openStore(cacheFile);
  try {
    return writeRemoteCopies(store, languages);
  } finally {
    store.close();
  }
}
