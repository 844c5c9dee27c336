/**
 * The per-language document stored in `site_info`: the index summary the build needs (name,
 * description, addresses, time zone, front page settings) and the `seo/v1` site
 * representation (who the site is: company or person, logo, social profiles).
 *
 * Shape: `{lang, name, description, url, home, gmt_offset, timezone_string, page_for_posts,
 * page_on_front, show_on_front, site_logo, site_icon, site_icon_url, seo}` where `seo` is
 * - with credentials: `{source: 'configuration', site_representation, social_profiles,
 *   finishedSteps}` (the `get_configuration_state` data, as sent);
 * - anonymous: `{source: 'schema', schema_node}`, the Organization/Person node of a post's
 *   `seo_head_json.schema` graph (kept from an earlier pull when no item changed);
 * - `null` when neither is known.
 */
import type { CmsClient } from '../client/index.js';
import { HttpError } from '../errors.js';

const SUMMARY_FIELDS = [
  'name',
  'description',
  'url',
  'home',
  'gmt_offset',
  'timezone_string',
  'page_for_posts',
  'page_on_front',
  'show_on_front',
  'site_logo',
  'site_icon',
  'site_icon_url',
] as const;

export type SeoInfo =
  | { readonly source: 'configuration'; readonly [key: string]: unknown }
  | { readonly source: 'schema'; readonly schema_node: Record<string, unknown> };

/** The summary fields of the index body (routes and namespaces are left out: they are large). */
export function indexSummary(index: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  for (const field of SUMMARY_FIELDS) {
    if (index[field] !== undefined) summary[field] = index[field];
  }
  return summary;
}

/** The Organization or Person node of an item's `seo_head_json.schema` graph, if any. */
export function representationFromItem(
  item: Readonly<Record<string, unknown>>,
): Record<string, unknown> | undefined {
  const head = item['seo_head_json'];
  if (typeof head !== 'object' || head === null) return undefined;
  const schema = (head as Record<string, unknown>)['schema'];
  if (typeof schema !== 'object' || schema === null) return undefined;
  const graph = (schema as Record<string, unknown>)['@graph'];
  if (!Array.isArray(graph)) return undefined;
  for (const node of graph) {
    if (typeof node !== 'object' || node === null) continue;
    const kind = (node as Record<string, unknown>)['@type'];
    const kinds = Array.isArray(kind) ? kind : [kind];
    if (kinds.includes('Organization') || kinds.includes('Person')) {
      return node as Record<string, unknown>;
    }
  }
  return undefined;
}

/**
 * `GET seo/v1/configuration/get_configuration_state` (credentials needed). A site without
 * the route, or one that refuses it, gives undefined: the representation then comes from items.
 */
export async function fetchSeoConfiguration(client: CmsClient): Promise<SeoInfo | undefined> {
  try {
    const response = await client.get<unknown>('seo/v1/configuration/get_configuration_state');
    const body = response.data as { data?: unknown } | null;
    const data = body?.data;
    if (typeof data !== 'object' || data === null) return undefined;
    return { ...(data as Record<string, unknown>), source: 'configuration' };
  } catch (error) {
    if (error instanceof HttpError && error.status >= 400 && error.status < 500) return undefined;
    throw error;
  }
}

/**
 * The document to store: the new summary and the best seo information available. The
 * configuration (fetched with credentials) is richer than a schema node (it has the social
 * profiles), so an anonymous pull keeps one stored by an earlier credentialed pull.
 */
export function siteInfoDocument(
  lang: string,
  summary: Readonly<Record<string, unknown>>,
  seo: SeoInfo | undefined,
  previous: unknown,
): Record<string, unknown> {
  const old =
    typeof previous === 'object' && previous !== null
      ? (previous as Record<string, unknown>)['seo']
      : undefined;
  const oldSeo =
    typeof old === 'object' && old !== null ? (old as Record<string, unknown>) : undefined;
  const best =
    seo?.source === 'configuration'
      ? seo
      : oldSeo?.['source'] === 'configuration'
        ? oldSeo
        : (seo ?? oldSeo ?? null);
  return { lang, ...summary, seo: best };
}
