import { PUBLISHED_KEYWORDS } from './arg-schema.js';
import type { ArgSchema } from './arg-schema.js';
import { localize } from './localized.js';
import { homeUrl } from './render.js';
import type { RouteDef } from './route-types.js';
import type { SiteState } from './site-state.js';
import type { LangStore } from './store.js';

/**
 * The site index (`GET /`) and namespace indexes, rendered from the same route table that
 * validates requests, with argument descriptions in the language of the path.
 */
export const NAMESPACES = [
  'oembed/1.0',
  'seo/v1',
  'cms/v2',
  'cms-site-health/v1',
  'cms-block-editor/v1',
  'cms-abilities/v1',
] as const;

export function publishArg(
  schema: ArgSchema,
  lang: string,
  nested = false,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const keyword of PUBLISHED_KEYWORDS) {
    const value = schema[keyword];
    if (value === undefined) continue;
    if (keyword === 'description')
      out.description = localize(schema.description as NonNullable<ArgSchema['description']>, lang);
    else if (keyword === 'items') out.items = publishArg(value as ArgSchema, lang, true);
    else if (keyword === 'oneOf')
      out.oneOf = (value as ArgSchema[]).map((entry) => publishArg(entry, lang, true));
    else if (keyword === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, ArgSchema>).map(([name, entry]) => [
          name,
          publishArg(entry, lang, true),
        ]),
      );
    } else if (keyword === 'additionalProperties' && typeof value === 'object') {
      out.additionalProperties = publishArg(value as ArgSchema, lang, true);
    } else out[keyword] = Array.isArray(value) ? [...(value as unknown[])] : value;
  }
  if (nested) {
    if (schema.context) out.context = [...schema.context];
    if (schema.readonly) out.readonly = true;
    if (schema.required) out.required = true;
  } else {
    out.required = schema.required === true;
  }
  return out;
}

export function describeRoute(
  route: RouteDef,
  lang: string,
  root: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    namespace: route.namespace,
    methods: [...new Set(route.endpoints.flatMap((endpoint) => endpoint.methods))],
    endpoints: route.endpoints.map((endpoint) => ({
      methods: [...endpoint.methods],
      ...(endpoint.allowBatch ? { allow_batch: { v1: true } } : {}),
      args: Object.fromEntries(
        Object.entries(endpoint.args).map(([name, arg]) => [name, publishArg(arg, lang)]),
      ),
    })),
  };
  // Servers only link routes without URL parameters (a pattern is not an address).
  if (!route.path.includes('(?P<'))
    out._links = { self: [{ href: `${root}${route.path.slice(1)}` }] };
  return out;
}

export function buildSiteIndex(
  site: SiteState,
  store: LangStore,
  routes: readonly RouteDef[],
  root: string,
): Record<string, unknown> {
  const { settings } = store;
  return {
    name: settings.name,
    description: settings.description,
    url: site.base,
    home: homeUrl(site.base, settings.lang),
    gmt_offset: String(settings.gmtOffset),
    timezone_string: '',
    page_for_posts: store.pageForPosts,
    page_on_front: store.pageOnFront,
    show_on_front: store.showOnFront,
    namespaces: [...NAMESPACES],
    authentication: {
      'application-passwords': {
        endpoints: { authorization: `${site.base}/cms-admin/authorize-application.php` },
      },
    },
    routes: Object.fromEntries(
      routes.map((route) => [route.path, describeRoute(route, settings.lang, root)]),
    ),
    site_logo: 0,
    site_icon: 0,
    site_icon_url: '',
    _links: { self: [{ href: root }] },
  };
}

export function buildNamespaceIndex(
  namespace: string,
  routes: readonly RouteDef[],
  lang: string,
  root: string,
): Record<string, unknown> {
  return {
    namespace,
    routes: Object.fromEntries(
      routes
        .filter((route) => route.namespace === namespace)
        .map((route) => [route.path, describeRoute(route, lang, root)]),
    ),
    _links: { up: [{ href: root }] },
  };
}
