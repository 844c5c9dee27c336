/**
 * The transform stage as a thin shell around the pure processor: read the items whose output
 * is missing or stale, resolve links, media and embeds from what the cache already holds, and
 * store the result keyed by `transformKey` (the version and the settings that change output). Offline: everything it needs was fetched by
 * pull; what was not fetched stays a link card or a remote link, never a request.
 */
import { BUILT_TYPES } from '../collections.js';
import type { ItemType, Store, StoredItem } from '../store/index.js';
import { findEmbedUrls } from './embed-detection.js';
import { htmlFacts } from './html-facts.js';
import { RESERVED_FIRST_SEGMENTS, type PathCandidate } from './item-site-paths.js';
import { mediaSitePath } from './media-site-paths.js';
import { parseOEmbedResponse, type OEmbedResponse } from './oembed-response.js';
import { createHtmlProcessor, processHtml, type HtmlProcessor } from './process-html.js';
import { isPublic, parseItemJson, renderedField } from './publication.js';
import { plainTextExcerpt } from './plain-excerpt.js';
import { linksIntoFiles } from './removed-link-targets.js';
import type { PreviousBuild } from './previous-build.js';
import { staleItems } from './stale-items.js';
import { removedItemPages, storedLinkResolver, storeSitePaths } from './stored-site-paths.js';
import { createUrlResolver } from './url-resolver.js';
import { transformKey } from './version.js';

export interface TransformOptions {
  readonly lang: string;
  /** The language's remote home URL (`{site}/{lang}/`); item paths are taken relative to it. */
  readonly homeUrl: string;
  /** The `maxwidth` embeds were resolved with. @default 600 */
  readonly maxwidth?: number;
  /** Items written per transaction. @default 200 */
  readonly batchSize?: number;
  /**
   * The last build of this language. Items whose HTML links to one of its pages that no
   * current item produces any more (unpublished, deleted, moved) are transformed again, so
   * that they do not keep a link to a removed page.
   * @default none: only items whose source or the transform version changed are transformed
   */
  readonly previousBuild?: PreviousBuild;
  /**
   * Current outputs stored without their HTML facts (by an older version of this runner):
   * the facts are computed from the stored HTML and saved, without transforming again.
   * @default none
   */
  readonly refreshFacts?: Iterable<{ type: ItemType; id: number }>;
  /** Remove executable content from bodies (pipeline `transform.sanitize`). @default true */
  readonly sanitize?: boolean;
}

/** A public item as assigning site paths and finding stale outputs needs it. */
export interface TransformCandidate extends PathCandidate {
  readonly type: ItemType;
  readonly contentHash: string;
}

export interface TransformSummary {
  transformed: number;
  warnings: number;
  /**
   * `sitePathsDigest` of every public item's site path (`itemKey` → path), which the cache
   * now holds (`store.sitePaths`): other languages' pages link there through their language
   * switcher and hreflang alternates.
   */
  pathsDigest: string;
  /** The stored site paths were current: none was assigned this run. */
  pathsReused: boolean;
  /**
   * One line per item this run transformed that lives at `/{type}/{id}/` instead of its URL
   * path (unsafe or unportable as a file name, or taken): said once, when it is transformed.
   */
  moved: string[];
}

/**
 * Every public page, then post, of a language without reading its JSON into JavaScript (the
 * public rule runs in SQL): one pass, the cost of a run with nothing to transform.
 */
export function publicCandidates(store: Store, lang: string): TransformCandidate[] {
  return BUILT_TYPES.flatMap((type) => store.items.publicSummaries(lang, type));
}

/**
 * Local site paths of every media URL the cache holds a copy of, whichever language's pull
 * fetched it: one host may serve several languages, and content shows another language's
 * files too (the build copies only what public content uses).
 */
export function mediaSitePaths(store: Store): Map<string, string> {
  const paths = new Map<string, string>();
  for (const file of store.media.listFiles()) {
    paths.set(file.url, mediaSitePath(file.url, file.sha256));
  }
  return paths;
}

export function runTransform(store: Store, options: TransformOptions): TransformSummary {
  const { lang, homeUrl } = options;
  const maxwidth = options.maxwidth ?? 600;
  const key = transformKey({ sanitize: options.sanitize ?? true });
  // The site paths live in the cache: reused whole when the public items and their links are
  // those they were assigned from (a run with nothing stale costs one check in SQLite).
  const paths = storeSitePaths(store, lang, homeUrl);
  // Built on first use: reading every media file is wasted on a run with nothing to transform.
  let processor: HtmlProcessor | undefined;
  const processorFor = (): HtmlProcessor => (processor ??= processorOf(store, options));
  const summary: TransformSummary = {
    transformed: 0,
    warnings: 0,
    pathsDigest: paths.digest,
    pathsReused: paths.reused,
    moved: [],
  };
  // Only the moved items written: one line each, said in the order of their paths' contest.
  const moved: (PathCandidate & { path: string })[] = [];
  const writes = new BatchedWrites(store, options.batchSize ?? 200);
  const linking = linkingToRemoved(store, options, paths.digest, key);
  // The items changed since the last complete transform, when the cache logged them.
  const stale = staleItems(store, lang, key);
  for (const item of chain(linking, stale.items)) {
    const placed = store.sitePaths.get(lang, item.type, item.id);
    // Non-public items stay stale on purpose: they never reach the output, so no HTML is made.
    if (placed === undefined || !isPublic(item)) continue;
    const path = placed.sitePath;
    const result = transformOne(store, processorFor(), item, path, maxwidth);
    summary.transformed += 1;
    summary.warnings += result.warnings;
    if (placed.fallback) moved.push({ ...placed, path });
    writes.add(() =>
      store.transformed.put({
        lang,
        type: item.type,
        id: item.id,
        transformVersion: key,
        sourceHash: item.contentHash,
        html: result.html,
        excerpt: result.excerpt,
        // The build reads these for every page instead of the HTML itself.
        meta: { sitePath: path, ...htmlFacts(result.html, path, homeUrl) },
      }),
    );
  }
  refreshFacts(store, options, writes, (type, id) => {
    const placed = store.sitePaths.get(lang, type, id);
    if (placed?.fallback === true) moved.push({ ...placed, path: placed.sitePath });
  });
  writes.flush();
  stale.done();
  moved.sort((a, b) => rankOf(a.type) - rankOf(b.type) || a.id - b.id);
  for (const candidate of moved) {
    summary.moved.push(
      `${candidate.type} ${candidate.id} moved to ${candidate.path}: its URL path ${candidate.link ?? '(none)'} cannot be a file name on every system, is reserved, or is taken by another item`,
    );
  }
  return summary;
}

/** Position of a collection in `BUILT_TYPES`: the order items contend for paths in. */
function rankOf(type: string): number {
  return (BUILT_TYPES as readonly string[]).indexOf(type);
}

/** Writes stored in one transaction per `batchSize`. */
class BatchedWrites {
  #pending: (() => void)[] = [];
  constructor(
    readonly store: Store,
    readonly batchSize: number,
  ) {}

  add(write: () => void): void {
    this.#pending.push(write);
    if (this.#pending.length >= this.batchSize) this.flush();
  }

  flush(): void {
    if (this.#pending.length === 0) return;
    const writes = this.#pending;
    this.#pending = [];
    this.store.transaction(() => writes.forEach((write) => write()));
  }
}

/**
 * Current items linking to a page the last build wrote that no current item makes any more:
 * their source did not change, so they are not stale, but their links must go. Read a chunk
 * at a time from the stored paths and outputs.
 */
function* linkingToRemoved(
  store: Store,
  options: TransformOptions,
  pathsDigest: string,
  key: string,
): Generator<StoredItem> {
  const lastBuild = options.previousBuild;
  // The same items at the same paths: every item page of the last build is made again.
  if (lastBuild === undefined || lastBuild.pathsDigest === pathsDigest) return;
  // Only files an item could have owned: the build's own pages (home, listings, search) come
  // and go with the number of posts, and no item links to them through its site path.
  const removed = removedItemPages(store, options.lang, onlyItemPages(lastBuild.pageFiles()));
  if (removed.size === 0) return;
  for (const row of store.sitePaths.withCurrentHtml(options.lang, key)) {
    if (!linksIntoFiles(row.html, row.sitePath, removed)) continue;
    const item = store.items.get(options.lang, row.type, row.id);
    if (item) yield item;
  }
}

function* onlyItemPages(files: Iterable<string>): Generator<string> {
  for (const file of files) if (couldBeItemPage(file)) yield file;
}

/** The processor with every link and media URL the cache can resolve. */
function processorOf(store: Store, options: TransformOptions): HtmlProcessor {
  return createHtmlProcessor({
    resolveLink: storedLinkResolver(store, options.lang, options.homeUrl),
    resolveMedia: createUrlResolver(mediaSitePaths(store)),
    sanitize: options.sanitize ?? true,
  });
}

/**
 * Saves the HTML facts of `options.refreshFacts` that still lack them (an output this run
 * wrote has them), from the stored HTML; `onSaved` is told of each.
 */
function refreshFacts(
  store: Store,
  options: TransformOptions,
  writes: BatchedWrites,
  onSaved: (type: ItemType, id: number) => void,
): void {
  // Read after this run's writes: a row it wrote has its facts and is not refreshed again.
  writes.flush();
  for (const { type, id } of options.refreshFacts ?? []) {
    const stored = store.transformed.get(options.lang, type, id);
    const meta = stored?.meta as
      { sitePath?: unknown; htmlDigest?: unknown; media?: unknown } | null | undefined;
    const sitePath = meta?.sitePath;
    if (!stored || typeof sitePath !== 'string' || hasFacts(meta)) continue;
    onSaved(type, id);
    writes.add(() =>
      store.transformed.put({
        ...stored,
        meta: { ...(stored.meta as object), ...htmlFacts(stored.html, sitePath, options.homeUrl) },
      }),
    );
  }
}

/** The facts `lackingFacts` looks for: an `htmlDigest` string and a `media` array. */
function hasFacts(meta: { htmlDigest?: unknown; media?: unknown } | null | undefined): boolean {
  return typeof meta?.htmlDigest === 'string' && Array.isArray(meta.media);
}

function couldBeItemPage(file: string): boolean {
  const slash = file.indexOf('/');
  return slash > 0 && !RESERVED_FIRST_SEGMENTS.has(file.slice(0, slash));
}

function* chain<T>(...parts: Iterable<T>[]): Generator<T> {
  for (const part of parts) yield* part;
}

function transformOne(
  store: Store,
  processor: HtmlProcessor,
  item: StoredItem,
  pagePath: string,
  maxwidth: number,
): { html: string; excerpt: string; warnings: number } {
  const json = parseItemJson(item.json);
  const content = renderedField(json, 'content');
  const embeds = new Map<string, OEmbedResponse | null>();
  for (const url of findEmbedUrls(content)) {
    // An expired answer is still better than a card: the next pull refreshes it.
    const cached = store.oembed.get(url, maxwidth, { includeExpired: true });
    embeds.set(url, cached?.response ? parseOEmbedResponse(cached.response) : null);
  }
  const processed = processHtml(processor, content, {
    baseUrl: item.link ?? '',
    pagePath,
    embeds,
  });
  return {
    html: processed.html,
    excerpt: plainTextExcerpt(renderedField(json, 'excerpt') || content),
    warnings: processed.warnings.length,
  };
}
