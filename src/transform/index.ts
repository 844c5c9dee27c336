/**
 * The transform stage's entry point. It loads no HTML parser: what parses or serialises HTML
 * (unified, parse5, hast utilities) is offered by `./html.js` and loaded only by the work that
 * needs it (a changed item's transform, embed detection), so a run with nothing to transform
 * does not pay for it (a no-op `run`; test/integration/cli/lazy-modules.test.ts).
 */
export { TRANSFORM_VERSION, transformKey, type TransformSettings } from './version.js';
export {
  decodeSegment,
  encodeSegment,
  isPlainSitePath,
  normalizeSitePath,
  relativeSitePath,
  sitePathForUrl,
  sitePathToFilePath,
} from './site-paths.js';
export { createUrlResolver, urlKey, type UrlResolver } from './url-resolver.js';
export { isSafeUrl, SAFE_URL_SCHEMES, urlScheme } from './url-safety.js';
export { parseSrcset, stringifySrcset, type SrcsetCandidate } from './srcset.js';
export {
  DEFAULT_EMBED_TTL_SECONDS,
  DEFAULT_MAXWIDTH,
  MAX_EMBED_TTL_SECONDS,
  resolveEmbeds,
  ttlFor,
  UNRESOLVED_EMBED_TTL_SECONDS,
  type CachedEmbed,
  type EmbedCache,
  type EmbedResolverDeps,
  type EmbedResolverOptions,
} from './embed-resolver.js';
export { parseOEmbedResponse, type OEmbedResponse, type OEmbedType } from './oembed-response.js';
export { ITEM_CONTEXT_KEY, type ItemContext } from './item-context.js';
export { rehypeInternalLinks, type InternalLinksOptions } from './rehype-internal-links.js';
export { rehypeMedia, type MediaOptions } from './rehype-media.js';
export { rehypeSafeUrls, type SafeUrlsOptions } from './rehype-safe-urls.js';
export { htmlDigestOf, htmlFacts, storedHtmlFacts, type HtmlFacts } from './html-facts.js';
export { itemKey } from './item-site-paths.js';
export { mediaSitePath } from './media-site-paths.js';
export { parseItemJson } from './publication.js';
export { localReferences } from './local-references.js';
export {
  transformLanguages,
  type LanguageToTransform,
  type LanguageTransform,
  type TransformLanguagesOptions,
} from './language-transforms.js';
export { OFFLOAD_MIN_STALE } from './offloaded-transform.js';
