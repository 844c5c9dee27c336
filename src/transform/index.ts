export { TRANSFORM_VERSION, transformKey, type TransformSettings } from './version.js';
export {
  createHtmlProcessor,
  processHtml,
  type HtmlProcessor,
  type HtmlProcessorOptions,
  type PerItem,
  type ProcessedHtml,
} from './process-html.js';
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
  findEmbedUrls,
  findStandaloneUrls,
  MAX_EMBED_URL_LENGTH,
  standaloneUrl,
  type StandaloneUrl,
} from './embed-detection.js';
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
export {
  KNOWN_EMBED_HOSTS,
  MAX_PROVIDER_HTML_LENGTH,
  sanitizeProviderHtml,
} from './provider-html.js';
export { ITEM_CONTEXT_KEY, type ItemContext } from './item-context.js';
export { rehypeEmbeds, type EmbedsOptions } from './rehype-embeds.js';
export { rehypeHeadingIds, type HeadingIdsOptions } from './rehype-heading-ids.js';
export { rehypeInternalLinks, type InternalLinksOptions } from './rehype-internal-links.js';
export { rehypeMedia, type MediaOptions } from './rehype-media.js';
export { rehypeSafeUrls, type SafeUrlsOptions } from './rehype-safe-urls.js';
export { htmlDigestOf, htmlFacts, storedHtmlFacts, type HtmlFacts } from './html-facts.js';
export { itemKey } from './item-site-paths.js';
export { mediaSitePath } from './media-site-paths.js';
export { parseItemJson } from './publication.js';
export { localReferences } from './local-references.js';
export {
  readPublished,
  transformLanguages,
  type LanguageToTransform,
  type LanguageTransform,
  type PublishedItems,
  type TransformLanguagesOptions,
} from './language-transforms.js';
export { OFFLOAD_MIN_STALE } from './offloaded-transform.js';
