/**
 * The transform's HTML tools: everything that parses or serialises HTML (unified, parse5,
 * hast utilities). Apart from the entry point (`./index.js`) so that importing the stage does
 * not load a parser; import this (lazily, `await import(...)`) where HTML is really read.
 */
export {
  createHtmlProcessor,
  processHtml,
  type HtmlProcessor,
  type HtmlProcessorOptions,
  type PerItem,
  type ProcessedHtml,
} from './process-html.js';
export {
  findEmbedUrls,
  findStandaloneUrls,
  MAX_EMBED_URL_LENGTH,
  standaloneUrl,
  type StandaloneUrl,
} from './embed-detection.js';
export {
  KNOWN_EMBED_HOSTS,
  MAX_PROVIDER_HTML_LENGTH,
  sanitizeProviderHtml,
} from './provider-html.js';
export { rehypeEmbeds, type EmbedsOptions } from './rehype-embeds.js';
export { rehypeHeadingIds, type HeadingIdsOptions } from './rehype-heading-ids.js';
