/**
 * The backup half of "the cache equals the truth": revisions, autosaves and media files. The
 * truth is the reference site's own store (`control.listRevisions`, `control.listFiles`), read
 * in the test process, so nothing here depends on what the client chose to fetch: every post
 * and page the site holds (any status but `auto-draft`) must have its revisions and autosaves
 * in the cache, and every file of every media item must be there with the sha256 of the
 * site's bytes.
 */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { formatGmt } from '../../src/reference/site-dates.js';
import type { StoredRevision } from '../../src/reference/index.js';
import type { Store } from '../../src/store/index.js';
import type { Json, ReferenceSite } from './reference.js';

export interface BackupComparison {
  /** Differences, each naming language, item and what differs; empty when equal. */
  readonly problems: string[];
  readonly revisions: number;
  readonly autosaves: number;
  readonly files: number;
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** One cached revision (its JSON) against the site's record of it. */
function revisionDifferences(label: string, cached: Json, want: StoredRevision): string[] {
  const fields: [string, unknown, unknown][] = [
    ['parent', cached?.parent, want.parent],
    ['title', cached?.title?.raw, want.title],
    ['content', cached?.content?.raw, want.content],
    ['excerpt', cached?.excerpt?.raw, want.excerpt],
    ['modified_gmt', cached?.modified_gmt, formatGmt(want.modifiedGmt)],
  ];
  return fields
    .filter(([, have, expected]) => have !== expected)
    .map(([field, have]) => `${label}: ${field} is ${JSON.stringify(have)}, the site has another`);
}

/** The revisions or autosaves of one parent: same ids, same texts. */
function kindDifferences(
  label: string,
  cachedRows: readonly { id: number; json: string }[],
  site: readonly StoredRevision[],
): string[] {
  const cached = new Map(cachedRows.map((row) => [row.id, JSON.parse(row.json) as Json]));
  const out: string[] = [];
  const missing = site.filter((revision) => !cached.has(revision.id)).map((r) => r.id);
  const wanted = new Set(site.map((revision) => revision.id));
  const extra = [...cached.keys()].filter((id) => !wanted.has(id));
  if (missing.length > 0) out.push(`${label}: missing from the cache: ${missing.join(', ')}`);
  if (extra.length > 0) out.push(`${label}: in the cache but not on the site: ${extra.join(', ')}`);
  for (const revision of site) {
    const row = cached.get(revision.id);
    if (row !== undefined)
      out.push(...revisionDifferences(`${label}/${revision.id}`, row, revision));
  }
  return out;
}

/** Revisions and autosaves of every post and page of one language the site holds. */
export function revisionsComparison(
  store: Store,
  site: ReferenceSite,
  lang: string,
): { problems: string[]; revisions: number; autosaves: number } {
  const problems: string[] = [];
  let revisions = 0;
  let autosaves = 0;
  for (const type of ['posts', 'pages'] as const) {
    for (const record of site.control.listItems(lang, type)) {
      if (record.status === 'auto-draft') continue;
      const all = site.control.listRevisions(lang, type, record.id);
      const ofKind = (kind: StoredRevision['kind']) => all.filter((r) => r.kind === kind);
      const label = `${lang}/${type}/${record.id}`;
      problems.push(
        ...kindDifferences(
          `${label} revisions`,
          store.revisions.list(lang, type, record.id),
          ofKind('revision'),
        ),
        ...kindDifferences(
          `${label} autosaves`,
          store.autosaves.list(lang, type, record.id),
          ofKind('autosave'),
        ),
      );
      revisions += ofKind('revision').length;
      autosaves += ofKind('autosave').length;
    }
  }
  return { problems, revisions, autosaves };
}

/**
 * Every file the site serves for the media items `owners` (default: every media item it
 * holds but auto-drafts) is in the cache with the sha256 of the site's bytes, its blob intact.
 */
export function filesComparison(
  store: Store,
  site: ReferenceSite,
  lang: string,
  owners?: ReadonlySet<number>,
): { problems: string[]; files: number } {
  const media =
    owners ??
    new Set(
      site.control
        .listItems(lang, 'media')
        .filter((record) => record.status !== 'auto-draft')
        .map((record) => record.id),
    );
  const problems: string[] = [];
  let files = 0;
  for (const file of site.control.listFiles(lang)) {
    if (!media.has(file.owner)) continue;
    files += 1;
    const cached = store.media.getFile(file.url);
    if (cached === undefined) {
      problems.push(`${lang} media ${file.owner}: ${file.url} missing from the cache`);
      continue;
    }
    if (cached.sha256 !== sha256(file.bytes))
      problems.push(`${lang} media ${file.owner}: ${file.url} has other bytes in the cache`);
    const blob = store.media.getBlob(cached.sha256);
    if (blob === undefined || sha256(blob) !== cached.sha256)
      problems.push(`${lang} media ${file.owner}: the blob of ${file.url} is missing or torn`);
  }
  return { problems, files };
}

/** Revisions, autosaves and media files of one language: cache against the site's store. */
export function backupDifferences(
  store: Store,
  site: ReferenceSite,
  lang: string,
): BackupComparison {
  const revisions = revisionsComparison(store, site, lang);
  const files = filesComparison(store, site, lang);
  return {
    problems: [...revisions.problems, ...files.problems],
    revisions: revisions.revisions,
    autosaves: revisions.autosaves,
    files: files.files,
  };
}

/**
 * Asserts the backup of each language equals the site's; returns how many revisions,
 * autosaves and files were compared (so a caller can check the comparison was not vacuous).
 */
export function expectBackupEqualsSite(
  store: Store,
  site: ReferenceSite,
  languages: readonly string[],
): { revisions: number; autosaves: number; files: number } {
  const total = { revisions: 0, autosaves: 0, files: 0 };
  const problems: string[] = [];
  for (const lang of languages) {
    const result = backupDifferences(store, site, lang);
    problems.push(...result.problems);
    total.revisions += result.revisions;
    total.autosaves += result.autosaves;
    total.files += result.files;
  }
  expect(problems).toEqual([]);
  return total;
}
