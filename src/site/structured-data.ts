/**
 * JSON-LD (schema.org) for every page: the WebSite, the Organization or Person from the
 * `seo/v1` site representation, and a BlogPosting or WebPage for an item's own page. URLs are
 * absolute (from `publicUrl`), as search engines require.
 */
import type { SiteIdentity, SiteModel } from './site-model.js';
import { gmtToIso } from './xml-text.js';

/** The item a page shows, for its own JSON-LD node. */
export interface JsonLdItem {
  kind: 'post' | 'page';
  title: string;
  /** Absolute URL of the page. */
  url: string;
  dateGmt: string;
  modifiedGmt: string;
  description: string;
  /** Absolute URL of the featured image. */
  image?: string;
}

/** An absolute http(s) URL for a URL or a site path, or undefined for anything else. */
export function absoluteHttpUrl(value: string, publicUrl: string): string | undefined {
  try {
    const url = value.startsWith('/') ? new URL(value.slice(1), publicUrl) : new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function identityNode(identity: SiteIdentity, publicUrl: string): Record<string, unknown> {
  const id = `${publicUrl}#identity`;
  const node: Record<string, unknown> = { '@type': identity.kind, '@id': id, name: identity.name };
  const url = absoluteHttpUrl(identity.url, publicUrl);
  if (url) node.url = url;
  const logo = identity.logo ? absoluteHttpUrl(identity.logo, publicUrl) : undefined;
  if (logo)
    node[identity.kind === 'Organization' ? 'logo' : 'image'] = {
      '@type': 'ImageObject',
      url: logo,
    };
  const sameAs = identity.sameAs
    .map((profile) => absoluteHttpUrl(profile, publicUrl))
    .filter((profile): profile is string => profile !== undefined);
  if (sameAs.length > 0) node.sameAs = sameAs;
  return node;
}

/**
 * The `@graph` of one page: WebSite, the identity (when the site has one) and the page's item.
 */
export function jsonLdGraph(
  model: Pick<SiteModel, 'site' | 'identity' | 'locale'>,
  item?: JsonLdItem,
): Record<string, unknown> {
  const { publicUrl } = model.site;
  const identityId = model.identity ? `${publicUrl}#identity` : undefined;
  const website: Record<string, unknown> = {
    '@type': 'WebSite',
    '@id': `${publicUrl}#website`,
    url: publicUrl,
    name: model.site.name,
    inLanguage: model.locale,
    potentialAction: {
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${publicUrl}search/?q={search_term_string}` },
      'query-input': 'required name=search_term_string',
    },
  };
  if (model.site.description) website.description = model.site.description;
  if (identityId) website.publisher = { '@id': identityId };

  const graph: Record<string, unknown>[] = [website];
  if (model.identity) graph.push(identityNode(model.identity, publicUrl));
  if (item) {
    const node: Record<string, unknown> = {
      '@type': item.kind === 'post' ? 'BlogPosting' : 'WebPage',
      '@id': `${item.url}#${item.kind === 'post' ? 'article' : 'webpage'}`,
      url: item.url,
      [item.kind === 'post' ? 'headline' : 'name']: item.title,
      datePublished: gmtToIso(item.dateGmt),
      dateModified: gmtToIso(item.modifiedGmt),
      inLanguage: model.locale,
      isPartOf: { '@id': `${publicUrl}#website` },
    };
    if (item.kind === 'post') node.mainEntityOfPage = item.url;
    if (item.description) node.description = item.description;
    if (item.image) node.image = item.image;
    if (identityId && item.kind === 'post') {
      node.publisher = { '@id': identityId };
      node.author = { '@id': identityId };
    }
    graph.push(node);
  }
  return { '@context': 'https://schema.org', '@graph': graph };
}

/**
 * JSON for inside `<script type="application/ld+json">`: `<`, `>`, `&` and the JavaScript line
 * separators are escaped, so no title can close the script element or break parsing.
 */
export function jsonLdScriptContent(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
