/**
 * The transform stage as a thin shell around the pure processor: read the items whose output
 * is missing or stale, resolve links, media and embeds from what the cache already holds, and
 * store the result keyed by TRANSFORM_VERSION. Offline: everything it needs was fetched by
 * pull; what was not fetched stays a link card or a remote link, never a request.
 */
import type { Store, StoredItem } from '../store/index.js';
import { findEmbedUrls } from './embed-detection.js';
import { itemKey, assignSitePaths, type PathCandidate } from './item-site-paths.js';
import { mediaSitePath } from './media-site-paths.js';
import { parseOEmbedResponse, type OEmbedResponse } from './oembed-response.js';
import { createHtmlProcessor, processHtml, type HtmlProcessor } from './process-html.js';
import { isPublic, parseItemJson, renderedField } from './publication.js';
import { plainTextExcerpt } from './plain-excerpt.js';
import { createUrlResolver } from './url-resolver.js';
import { TRANSFORM_VERSION } from './version.js';

export interface TransformOptions {
  readonly lang: string;
  /** The language's remote home URL (`{site}/{lang}/`); item paths are taken relative to it. */
  readonly homeUrl: string;
  /** The `maxwidth` embeds were resolved with. @default 600 */
  readonly maxwidth?: number;
  /** Items written per transaction. @default 200 */
  readonly batchSize?: number;
}

export interface TransformSummary {
  transformed: number;
  warnings: number;
}

/** Site paths of every public post and page of a language, pages first (they own short paths). */
export function publicSitePaths(store: Store, lang: string, homeUrl: string): Map<string, string> {
  return assignSitePaths(publicCandidates(store, lang), homeUrl);
}

function* publicCandidates(store: Store, lang: string): Generator<PathCandidate> {
  for (const type of ['pages', 'posts'] as const) {
    for (const item of store.items.iterate(lang, type, { statuses: ['publish'] })) {
      if (isPublic(item)) yield { type, id: item.id, link: item.link };
    }
  }
}

/** Local site paths of every media URL the cache holds a copy of. */
export function mediaSitePaths(store: Store, lang: string): Map<string, string> {
  const paths = new Map<string, string>();
  for (const file of store.media.listFiles({ lang })) {
    paths.set(file.url, mediaSitePath(file.url, file.sha256));
  }
  return paths;
}

export function runTransform(store: Store, options: TransformOptions): TransformSummary {
  const { lang, homeUrl } = options;
  const maxwidth = options.maxwidth ?? 600;
  const sitePaths = publicSitePaths(store, lang, homeUrl);
  const linkEntries: [string, string][] = [];
  for (const type of ['pages', 'posts'] as const) {
    for (const item of store.items.iterate(lang, type, { statuses: ['publish'] })) {
      const path = sitePaths.get(itemKey(type, item.id));
      if (path !== undefined && item.link) linkEntries.push([item.link, path]);
    }
  }
  const processor = createHtmlProcessor({
    resolveLink: createUrlResolver(linkEntries),
    resolveMedia: createUrlResolver(mediaSitePaths(store, lang)),
  });

  const summary: TransformSummary = { transformed: 0, warnings: 0 };
  const batchSize = options.batchSize ?? 200;
  let pending: (() => void)[] = [];
  const flush = () => {
    const writes = pending;
    pending = [];
    store.transaction(() => writes.forEach((write) => write()));
  };
  for (const item of store.transformed.iterateStale(lang, String(TRANSFORM_VERSION), {
    types: ['posts', 'pages'],
  })) {
    const path = sitePaths.get(itemKey(item.type, item.id));
    // Non-public items stay stale on purpose: they never reach the output, so no HTML is made.
    if (path === undefined || !isPublic(item)) continue;
    const result = transformOne(store, processor, item, path, maxwidth);
    summary.transformed += 1;
    summary.warnings += result.warnings;
    pending.push(() =>
      store.transformed.put({
        lang,
        type: item.type,
        id: item.id,
        transformVersion: String(TRANSFORM_VERSION),
        sourceHash: item.contentHash,
        html: result.html,
        excerpt: result.excerpt,
        meta: { sitePath: path },
      }),
    );
    if (pending.length >= batchSize) flush();
  }
  if (pending.length > 0) flush();
  return summary;
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
