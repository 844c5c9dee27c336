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
import {
  itemKey,
  assignSitePaths,
  RESERVED_FIRST_SEGMENTS,
  type PathCandidate,
} from './item-site-paths.js';
import { mediaSitePath } from './media-site-paths.js';
import { parseOEmbedResponse, type OEmbedResponse } from './oembed-response.js';
import { createHtmlProcessor, processHtml, type HtmlProcessor } from './process-html.js';
import { isPublic, parseItemJson, renderedField } from './publication.js';
import { plainTextExcerpt } from './plain-excerpt.js';
import { linksIntoFiles, removedPageFiles } from './removed-link-targets.js';
import { shortLinkEntries } from './short-links.js';
import { sitePathsDigest } from './paths-digest.js';
import type { PreviousBuild } from './previous-build.js';
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
   * The language's public pages, then posts, as `publicCandidates` reads them, when the
   * caller has already read them (the build reads them once for the transform and its model).
   * @default read from the store
   */
  readonly candidates?: readonly TransformCandidate[];
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
   * Site path of every public item by `itemKey` (`posts:12`): what other languages' pages
   * link to through their language switcher and hreflang alternates.
   */
  sitePaths: ReadonlyMap<string, string>;
  /** `sitePathsDigest(sitePaths)`. */
  pathsDigest: string;
  /** `itemKey` of every item whose stored output this run wrote (transformed or facts saved). */
  written: ReadonlySet<string>;
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
  // One pass over the public items: a run with nothing stale costs only this.
  const candidates = options.candidates ?? publicCandidates(store, lang);
  const fellBack: PathCandidate[] = [];
  const sitePaths = assignSitePaths(candidates, homeUrl, (candidate) => fellBack.push(candidate));
  // Built on first use: resolving 10,000 links is wasted on a run with nothing to transform.
  let processor: HtmlProcessor | undefined;
  const processorFor = (): HtmlProcessor =>
    (processor ??= processorOf(store, candidates, sitePaths, options));
  const written = new Set<string>();
  const pathsDigest = sitePathsDigest(sitePaths);
  const summary: TransformSummary = {
    transformed: 0,
    warnings: 0,
    sitePaths,
    pathsDigest,
    written,
    moved: [],
  };
  const writes = new BatchedWrites(store, options.batchSize ?? 200);
  const linking = linkingToRemoved(store, options, { candidates, sitePaths, pathsDigest, key });
  const stale = store.transformed.iterateStale(lang, key, { types: BUILT_TYPES });
  for (const item of chain(linking, stale)) {
    const path = sitePaths.get(itemKey(item.type, item.id));
    // Non-public items stay stale on purpose: they never reach the output, so no HTML is made.
    if (path === undefined || !isPublic(item)) continue;
    const result = transformOne(store, processorFor(), item, path, maxwidth);
    summary.transformed += 1;
    summary.warnings += result.warnings;
    written.add(itemKey(item.type, item.id));
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
  refreshFacts(store, options, written, writes);
  writes.flush();
  for (const candidate of fellBack) {
    if (!written.has(itemKey(candidate.type, candidate.id))) continue;
    summary.moved.push(
      `${candidate.type} ${candidate.id} moved to ${sitePaths.get(itemKey(candidate.type, candidate.id)) ?? '?'}: its URL path ${candidate.link ?? '(none)'} cannot be a file name on every system, is reserved, or is taken by another item`,
    );
  }
  return summary;
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
 * their source did not change, so they are not stale, but their links must go.
 */
function linkingToRemoved(
  store: Store,
  options: TransformOptions,
  known: {
    candidates: readonly TransformCandidate[];
    sitePaths: ReadonlyMap<string, string>;
    pathsDigest: string;
    key: string;
  },
): StoredItem[] {
  const lastBuild = options.previousBuild;
  // The same items at the same paths: every item page of the last build is made again.
  if (lastBuild === undefined || lastBuild.pathsDigest === known.pathsDigest) return [];
  // Only files an item could have owned: the build's own pages (home, listings, search) come
  // and go with the number of posts, and no item links to them through its site path.
  const removed = removedPageFiles(
    [...lastBuild.pageFiles()].filter(couldBeItemPage),
    known.sitePaths.values(),
  );
  const items: StoredItem[] = [];
  for (const candidate of removed.size > 0 ? known.candidates : []) {
    const path = known.sitePaths.get(itemKey(candidate.type, candidate.id));
    const previous = store.transformed.get(options.lang, candidate.type, candidate.id);
    if (
      path !== undefined &&
      previous?.sourceHash === candidate.contentHash &&
      previous.transformVersion === known.key &&
      linksIntoFiles(previous.html, path, removed)
    ) {
      const item = store.items.get(options.lang, candidate.type, candidate.id);
      if (item) items.push(item);
    }
  }
  return items;
}

/** The processor with every link and media URL the cache can resolve. */
function processorOf(
  store: Store,
  candidates: readonly TransformCandidate[],
  sitePaths: ReadonlyMap<string, string>,
  options: TransformOptions,
): HtmlProcessor {
  return createHtmlProcessor({
    resolveLink: createUrlResolver([
      ...candidates.flatMap((candidate): [string, string][] => {
        const path = sitePaths.get(itemKey(candidate.type, candidate.id));
        return path !== undefined && candidate.link ? [[candidate.link, path]] : [];
      }),
      // After the links: an item's own link wins over a short link of the same spelling.
      ...shortLinkEntries(
        candidates,
        (type, id) => sitePaths.get(itemKey(type, id)),
        options.homeUrl,
      ),
    ]),
    resolveMedia: createUrlResolver(mediaSitePaths(store)),
    sanitize: options.sanitize ?? true,
  });
}

/** Saves the HTML facts of `options.refreshFacts` not written already, from the stored HTML. */
function refreshFacts(
  store: Store,
  options: TransformOptions,
  written: Set<string>,
  writes: BatchedWrites,
): void {
  for (const { type, id } of options.refreshFacts ?? []) {
    const key = itemKey(type, id);
    const stored = written.has(key) ? undefined : store.transformed.get(options.lang, type, id);
    const sitePath = (stored?.meta as { sitePath?: unknown } | null | undefined)?.sitePath;
    if (!stored || typeof sitePath !== 'string') continue;
    written.add(key);
    writes.add(() =>
      store.transformed.put({
        ...stored,
        meta: { ...(stored.meta as object), ...htmlFacts(stored.html, sitePath, options.homeUrl) },
      }),
    );
  }
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
