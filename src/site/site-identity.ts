/**
 * Who the site represents, from the `seo` part of a `site_info` document (see
 * `src/sync/site-info.ts`): the `seo/v1` configuration (`site_representation`,
 * `social_profiles`) when a credentialed pull fetched it, or the Organization/Person node an
 * item's head carried. Pure; anything missing or malformed gives `null` or is left out.
 */
import type { SiteIdentity } from './site-model.js';

type Json = Record<string, unknown>;

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function httpUrl(value: unknown): string | undefined {
  const candidate = text(value);
  if (candidate === '') return undefined;
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A social profile given as a URL, or as a bare handle for the short-message network. */
function profileUrl(value: unknown, handleBase?: string): string | undefined {
  const url = httpUrl(value);
  if (url) return url;
  const handle = text(value).replace(/^@/, '');
  return handleBase && /^\w{1,30}$/.test(handle) ? `${handleBase}${handle}` : undefined;
}

/**
 * @param seo the `seo` field of the language's `site_info` document
 * @param site the site's own name and home, used where the representation has none
 */
export function identityFromSeo(
  seo: unknown,
  site: { name: string; url: string },
): SiteIdentity | null {
  const info = record(seo);
  if (!info) return null;
  if (info.source === 'schema') return identityFromSchemaNode(record(info.schema_node), site);

  const representation = record(info.site_representation);
  if (!representation) return null;
  const isPerson = text(representation.company_or_person) === 'person';
  const social = record(info.social_profiles) ?? {};
  const others = Array.isArray(social.other_social_urls) ? social.other_social_urls : [];
  const sameAs = [
    profileUrl(social.facebook_site),
    profileUrl(social.twitter_site, 'https://x.com/'),
    ...others.map((other) => profileUrl(other)),
  ].filter((url): url is string => url !== undefined);
  const identity: SiteIdentity = {
    kind: isPerson ? 'Person' : 'Organization',
    // The person's name lives in a user record the interface does not expose: use the site's.
    name: (isPerson ? '' : text(representation.company_name)) || site.name,
    url: site.url,
    sameAs: [...new Set(sameAs)],
  };
  const logo = httpUrl(isPerson ? representation.person_logo : representation.company_logo);
  if (logo) identity.logo = logo;
  return identity;
}

function identityFromSchemaNode(
  node: Json | undefined,
  site: { name: string; url: string },
): SiteIdentity | null {
  if (!node) return null;
  const types = Array.isArray(node['@type']) ? node['@type'] : [node['@type']];
  const kind = types.includes('Person')
    ? 'Person'
    : types.includes('Organization')
      ? 'Organization'
      : undefined;
  if (!kind) return null;
  const sameAs = (Array.isArray(node.sameAs) ? node.sameAs : [])
    .map((url) => httpUrl(url))
    .filter((url): url is string => url !== undefined);
  const identity: SiteIdentity = {
    kind,
    name: text(node.name) || site.name,
    url: httpUrl(node.url) ?? site.url,
    sameAs,
  };
  const image = kind === 'Organization' ? node.logo : node.image;
  const logo = httpUrl(record(image)?.url ?? record(image)?.contentUrl ?? image);
  if (logo) identity.logo = logo;
  return identity;
}
