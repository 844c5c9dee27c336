/**
 * rehype plugin: media URLs become relative links to local copies, and images below the
 * first load lazily.
 *
 * Rewritten: `img[src]`, `img[srcset]`, `source[src]`, `source[srcset]`, `video[src]`,
 * `video[poster]`, `audio[src]`, `track[src]`, and `a[href]` to a mirrored file (links to
 * originals). `width`, `height` and every other attribute are kept as they are.
 *
 * `srcset` candidates are parsed properly and each rewritten. When any URL of an element
 * (its `src` or a candidate) is local, candidates that are not are dropped (with a warning):
 * the browser may pick any candidate, and a remote leftover would load from the remote host.
 *
 * Lazy loading: the first `<img>` of the document stays eager (it is likely above the fold);
 * every later one gets `loading="lazy"` and `decoding="async"` unless it already has a
 * value: an explicit value is the author's decision and is never overridden.
 */
import type { Element, Root } from 'hast';
import type { VFile } from 'vfile';
import { itemContext, parseBaseUrl } from './item-context.js';
import { isMarkedLocal, markLocal } from './rewrite-marks.js';
import { parseSrcset, stringifySrcset } from './srcset.js';
import type { UrlResolver } from './url-resolver.js';
import { rewriteUrl, type RewriteContext } from './url-rewrite.js';
import { walkElements } from './walk-elements.js';

export interface MediaOptions {
  /** Site path of the local copy of a media URL (`/media/3fa9-photo.png`), or `undefined`. Required. */
  readonly resolveMedia: UrlResolver;
  /**
   * The item's remote link, the base for relative URLs.
   * @default file.data.cmsMirror.baseUrl (set by `processHtml`); without one, relative URLs are left alone
   */
  readonly baseUrl?: string;
  /**
   * Site path of the page being written; output URLs are relative to it.
   * @default file.data.cmsMirror.pagePath, else '/'
   */
  readonly pagePath?: string;
  /**
   * Add `loading="lazy"` and `decoding="async"` to every `<img>` after the first.
   * @default true
   */
  readonly lazyLoading?: boolean;
}

/** Single-URL media properties per element. */
const MEDIA_PROPERTIES: Readonly<Record<string, readonly string[]>> = {
  img: ['src'],
  source: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  track: ['src'],
};

const SOURCE_SOURCE = 'cms-mirror:media';

export function rehypeMedia(options: MediaOptions) {
  const { resolveMedia } = options;
  const lazyLoading = options.lazyLoading ?? true;

  return (tree: Root, file?: VFile): void => {
    const item = itemContext(file);
    const context: RewriteContext = {
      baseUrl: parseBaseUrl(options.baseUrl ?? item.baseUrl),
      pagePath: options.pagePath ?? item.pagePath ?? '/',
    };
    let seenImage = false;

    walkElements(tree, (node) => {
      if (node.tagName === 'a') {
        rewriteOriginalLink(node, context, resolveMedia);
        return;
      }
      const properties = MEDIA_PROPERTIES[node.tagName];
      if (properties === undefined) return;

      let anyLocal = false;
      for (const property of properties) {
        if (rewriteSingle(node, property, context, resolveMedia, file)) anyLocal = true;
      }
      if (node.tagName === 'img' || node.tagName === 'source') {
        rewriteSrcset(node, context, resolveMedia, anyLocal, file);
      }

      if (node.tagName === 'img') {
        if (seenImage && lazyLoading) {
          node.properties.loading ??= 'lazy';
          node.properties.decoding ??= 'async';
        }
        seenImage = true;
      }
    });
  };
}

/** `a[href]` to a mirrored file; other links are the internal-links plugin's business. */
function rewriteOriginalLink(node: Element, context: RewriteContext, resolve: UrlResolver): void {
  const href = node.properties.href;
  if (typeof href !== 'string' || isMarkedLocal(node, 'href')) return;
  const rewrite = rewriteUrl(href, context, resolve);
  if (rewrite.kind === 'local') {
    node.properties.href = rewrite.value;
    markLocal(node, 'href');
  }
}

/** Rewrites one URL property; returns whether it is local now. */
function rewriteSingle(
  node: Element,
  property: string,
  context: RewriteContext,
  resolve: UrlResolver,
  file: VFile | undefined,
): boolean {
  if (isMarkedLocal(node, property)) return true;
  const value = node.properties[property];
  if (typeof value !== 'string') return false;
  const rewrite = rewriteUrl(value, context, resolve);
  if (rewrite.kind === 'local') {
    node.properties[property] = rewrite.value;
    markLocal(node, property);
    return true;
  }
  if (rewrite.kind === 'absolute') {
    node.properties[property] = rewrite.value;
    if (rewrite.sameSite) {
      file?.message(`Media ${rewrite.value} is not mirrored; it still loads from the remote site`, {
        place: node.position,
        ruleId: 'unmirrored-media',
        source: SOURCE_SOURCE,
      });
    }
  }
  return false;
}

function rewriteSrcset(
  node: Element,
  context: RewriteContext,
  resolve: UrlResolver,
  srcIsLocal: boolean,
  file: VFile | undefined,
): void {
  const raw = node.properties.srcSet;
  if (raw === undefined || raw === null || isMarkedLocal(node, 'srcSet')) return;
  // hast may hold it as a string or as naively comma-split tokens; rejoin and parse properly.
  const value = Array.isArray(raw) ? raw.join(',') : String(raw);
  const candidates = parseSrcset(value).map((candidate) => {
    const rewrite = rewriteUrl(candidate.url, context, resolve);
    return {
      url: rewrite.kind === 'keep' ? candidate.url : rewrite.value,
      descriptor: candidate.descriptor,
      local: rewrite.kind === 'local',
    };
  });
  const anyLocal = srcIsLocal || candidates.some((candidate) => candidate.local);
  const kept = anyLocal ? candidates.filter((candidate) => candidate.local) : candidates;
  if (kept.length < candidates.length) {
    const dropped = candidates
      .filter((candidate) => !candidate.local)
      .map((candidate) => candidate.url);
    file?.message(`Dropped srcset candidates that are not mirrored: ${dropped.join(' ')}`, {
      place: node.position,
      ruleId: 'srcset-dropped',
      source: SOURCE_SOURCE,
    });
  }
  if (kept.length === 0) {
    // Nothing left to choose from: `sizes` only means something with a `srcset`.
    delete node.properties.srcSet;
    delete node.properties.sizes;
    return;
  }
  node.properties.srcSet = stringifySrcset(kept);
  if (anyLocal) markLocal(node, 'srcSet');
}
