/**
 * Which entries of a model reach the output, and where: public ones only, with a safe and
 * canonical site path, and no two claiming one file. Pure.
 */
import { UnsafePathError } from '../errors.js';
import { htmlDigestOf, localReferences, sitePathToFilePath } from '../transform/index.js';
import { digestOf } from './digest.js';
import type { PathClaims } from './path-claims.js';
import { checkedSitePath, checkSitePath } from './safe-output-path.js';
import {
  isPublicEntry,
  type Entry,
  type MediaFile,
  type PageEntry,
  type PostEntry,
  type SiteModel,
} from './site-model.js';

/** An entry with its place in the output. */
export interface Placed<T extends Entry> {
  entry: T;
  sitePath: string;
  file: string;
  /** Digest of the entry's own fields. */
  digest: string;
}

export function publicOnly<T extends Entry>(
  entries: readonly T[],
  kind: string,
  warnings: string[],
): T[] {
  const kept = entries.filter(isPublicEntry);
  if (kept.length < entries.length) {
    warnings.push(
      `${entries.length - kept.length} non-public ${kind}(s) were given to the build and left out.`,
    );
  }
  return kept;
}

export function placeEntries<T extends Entry>(
  entries: readonly T[],
  kind: string,
  warnings: string[],
): Placed<T>[] {
  const placed: Placed<T>[] = [];
  for (const entry of entries) {
    const checked = safePagePath(entry, kind, warnings);
    if (checked !== undefined) placed.push({ entry, ...checked, digest: entryDigest(entry) });
  }
  return placed;
}

/** An entry's page: a permalink without a trailing slash is served as its directory. */
export function pagePathOf(entry: Entry): { sitePath: string; file: string } {
  return checkSitePath(entry.sitePath.endsWith('/') ? entry.sitePath : `${entry.sitePath}/`);
}

/** `pagePathOf`, or undefined with a warning naming the entry when its path is unsafe. */
export function safePagePath(
  entry: Entry,
  kind: string,
  warnings: string[],
): { sitePath: string; file: string } | undefined {
  try {
    return pagePathOf(entry);
  } catch (error) {
    if (!(error instanceof UnsafePathError)) throw error;
    warnings.push(`${kind} ${entry.id} left out: ${error.message}`);
    return undefined;
  }
}

export function entryDigest(entry: Entry): string {
  return digestOf(
    entry.contentHash,
    entry.id,
    entry.title,
    entry.sitePath,
    entry.dateGmt,
    entry.modifiedGmt,
    entry.htmlDigest ?? htmlDigestOf(entry.html),
    entry.excerptHtml,
    entry.featuredImage ?? null,
    entry.alternates,
    'sticky' in entry ? (entry as PostEntry).sticky : null,
    'parentId' in entry ? [(entry as PageEntry).parentId, (entry as PageEntry).menuOrder] : null,
  );
}

export function claimAll<T extends Entry>(
  placed: readonly Placed<T>[],
  claims: PathClaims,
  kind: string,
  warnings: string[],
): Placed<T>[] {
  // The oldest item keeps a contested path: it was there first on the remote site too.
  const byAge = [...placed].sort((a, b) => a.entry.id - b.entry.id);
  const refused = new Set<Placed<T>>();
  for (const item of byAge) {
    const conflict = claims.claim(item.file, `${kind} ${item.entry.id}`);
    if (conflict !== undefined) {
      refused.add(item);
      warnings.push(`${kind} ${item.entry.id} left out: its path ${item.sitePath} is ${conflict}.`);
    }
  }
  return placed.filter((item) => !refused.has(item));
}

/** Adds the local files an entry at its place uses (its HTML, excerpt, featured image). */
export function addMediaUses(used: Set<string>, { entry, sitePath }: Placed<Entry>): void {
  const references =
    entry.htmlMedia !== undefined && sitePath === entry.sitePath
      ? entry.htmlMedia
      : localReferences(entry.html, sitePath);
  for (const reference of references) used.add(reference);
  for (const reference of localReferences(entry.excerptHtml, sitePath)) used.add(reference);
  if (entry.featuredImage) used.add(safeCanonical(entry.featuredImage.sitePath) ?? '');
}

/** The media files that public content (`used`, by `addMediaUses`) or the logo uses. */
export function placeMedia(
  model: SiteModel,
  used: Set<string>,
  claims: PathClaims,
  warnings: string[],
): { media: MediaFile; file: string }[] {
  const logo = model.identity?.logo;
  if (logo?.startsWith('/')) used.add(safeCanonical(logo) ?? '');

  const placed: { media: MediaFile; file: string }[] = [];
  for (const media of model.media) {
    const sitePath = safeCanonical(media.sitePath);
    if (sitePath === undefined || sitePath.endsWith('/')) {
      warnings.push(`media file ${media.sitePath.slice(0, 120)} left out: unsafe path.`);
      continue;
    }
    if (!used.has(sitePath)) continue;
    const file = sitePathToFilePath(sitePath);
    // Named by where it came from: two files claiming one path must be told apart.
    const owner = `media file ${sitePath}${media.source === undefined ? '' : ` from ${media.source}`}`;
    const conflict = claims.claim(file, owner);
    if (conflict !== undefined) {
      warnings.push(`${owner} left out: it is ${conflict}.`);
      continue;
    }
    placed.push({ media, file });
  }
  return placed;
}

export function safeCanonical(sitePath: string): string | undefined {
  try {
    return checkedSitePath(sitePath);
  } catch {
    return undefined;
  }
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
