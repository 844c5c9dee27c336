import { BodyError, HttpError, SiteError } from '../errors.js';
import type { CmsClient } from './cms-client.js';
import { compileRoute, routeMatches, routeTemplate, type RoutePattern } from './route-pattern.js';

/** One argument descriptor of a route endpoint, as the index gives it. */
export interface ArgDescriptor {
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly default?: unknown;
  readonly required?: boolean;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly format?: string;
  readonly items?: unknown;
  readonly maxItems?: number;
  readonly [key: string]: unknown;
}

export interface RouteEndpoint {
  readonly methods: readonly string[];
  readonly args: Readonly<Record<string, ArgDescriptor>>;
  readonly allowBatch: boolean;
}

export interface RouteDescriptor {
  readonly namespace: string;
  readonly methods: readonly string[];
  readonly endpoints: readonly RouteEndpoint[];
}

/** A route the caller cannot work without: a template (`cms/v2/posts/{id}`) or a concrete path. */
export type RouteNeed = string | { readonly route: string; readonly methods?: readonly string[] };

/** Fallbacks for sites whose index leaves the limit out (the spec's values). */
export const DEFAULT_PER_PAGE_MAX = 100;
export const DEFAULT_BATCH_MAX_ITEMS = 25;

/** What the site index says, with the lookups the other stages need. */
export class SiteIndex {
  readonly indexUrl: string;
  readonly name: string;
  readonly description: string;
  readonly url: string;
  readonly home: string;
  /** Hours east of GMT; may be fractional (5.5) or negative. */
  readonly gmtOffset: number;
  /** May be empty when the site uses a fixed offset. */
  readonly timezoneString: string;
  readonly namespaces: readonly string[];
  /** Keyed by template (`cms/v2/posts/{id}`). */
  readonly routes: ReadonlyMap<string, RouteDescriptor>;
  readonly #keys: readonly string[];
  /** Compiled on the first lookup of a concrete path: a pull's lookups are templates. */
  #patterns: readonly RoutePattern[] | undefined;

  constructor(fields: {
    indexUrl: string;
    name: string;
    description: string;
    url: string;
    home: string;
    gmtOffset: number;
    timezoneString: string;
    namespaces: readonly string[];
    routes: ReadonlyMap<string, { key: string; descriptor: RouteDescriptor }>;
  }) {
    this.indexUrl = fields.indexUrl;
    this.name = fields.name;
    this.description = fields.description;
    this.url = fields.url;
    this.home = fields.home;
    this.gmtOffset = fields.gmtOffset;
    this.timezoneString = fields.timezoneString;
    this.namespaces = fields.namespaces;
    this.routes = new Map(
      [...fields.routes].map(([template, { descriptor }]) => [template, descriptor]),
    );
    // Kept as keys: compiling every route's pattern (46 on the reference site) cost a no-op
    // `run` of two languages ~8 ms of CPU, for lookups that a pull answers from `routes`
    // (RESULTS.md, i-noop4).
    this.#keys = [...fields.routes.values()].map(({ key }) => key);
  }

  /** The descriptor for a template or a concrete path (`cms/v2/posts/12`), if the site has it. */
  route(path: string): RouteDescriptor | undefined {
    const template = routeTemplate(path);
    const exact = this.routes.get(template);
    if (exact) return exact;
    this.#patterns ??= this.#keys.map(compileRoute);
    const pattern = this.#patterns.find((candidate) => routeMatches(candidate, path));
    return pattern ? this.routes.get(pattern.template) : undefined;
  }

  /** The endpoint of `route` that accepts `method`. */
  endpoint(route: string, method: string): RouteEndpoint | undefined {
    const verb = method.toUpperCase();
    return this.route(route)?.endpoints.find((endpoint) => endpoint.methods.includes(verb));
  }

  /** The descriptor args of `route` for `method`, for validating edits locally. */
  args(route: string, method = 'GET'): Readonly<Record<string, ArgDescriptor>> | undefined {
    return this.endpoint(route, method)?.args;
  }

  /** `per_page.maximum` of the route's GET endpoint, else 100. */
  perPageMax(route: string): number {
    const maximum = this.args(route, 'GET')?.['per_page']?.maximum;
    return typeof maximum === 'number' && Number.isInteger(maximum) && maximum >= 1
      ? maximum
      : DEFAULT_PER_PAGE_MAX;
  }

  /** Whether `method` on `route` carries `allow_batch: {v1: true}`. */
  allowsBatch(route: string, method: string): boolean {
    return this.endpoint(route, method)?.allowBatch ?? false;
  }

  /** `maxItems` of the batch route's `requests` argument, else 25. */
  batchMaxItems(): number {
    const maxItems = this.args('batch/v1', 'POST')?.['requests']?.maxItems;
    return typeof maxItems === 'number' && Number.isInteger(maxItems) && maxItems >= 1
      ? maxItems
      : DEFAULT_BATCH_MAX_ITEMS;
  }
}

/**
 * Reads the site index once and checks that everything in `needs` is there. An answer that
 * is not a cms-json index (HTML, 404, a redirect) and a missing namespace, route or method all
 * give a one-line SiteError naming the URL.
 */
export async function discoverSite(
  client: CmsClient,
  needs: readonly RouteNeed[] = [],
): Promise<SiteIndex> {
  const indexUrl = client.apiRoot;
  let data: unknown;
  try {
    data = (await client.get<unknown>('')).data;
  } catch (error) {
    if (error instanceof HttpError) {
      const server = error.serverCode ? ` (${error.serverCode})` : '';
      const hint =
        error.status >= 300 && error.status < 400
          ? '; it redirects elsewhere: check the site URL (http/https, path)'
          : '';
      throw new SiteError(
        indexUrl,
        `${indexUrl} is not a cms-json site: it answered ${error.status}${server}${hint}`,
        {
          cause: error,
        },
      );
    }
    if (error instanceof BodyError) {
      throw new SiteError(indexUrl, `${indexUrl} is not a cms-json site: ${error.detail}`, {
        cause: error,
      });
    }
    throw error;
  }
  const index = parseSiteIndex(indexUrl, data);
  checkNeeds(index, needs);
  return index;
}

/** Builds a SiteIndex from the index body; a body without namespaces/routes is a SiteError. */
export function parseSiteIndex(indexUrl: string, data: unknown): SiteIndex {
  const notSite = (why: string): SiteError =>
    new SiteError(indexUrl, `${indexUrl} is not a cms-json site: ${why}`);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw notSite('the index is not a JSON object');
  }
  const body = data as Record<string, unknown>;
  if (
    !Array.isArray(body['namespaces']) ||
    typeof body['routes'] !== 'object' ||
    body['routes'] === null
  ) {
    throw notSite('the index has no "namespaces" and "routes"');
  }
  const routes = new Map<string, { key: string; descriptor: RouteDescriptor }>();
  for (const [key, raw] of Object.entries(body['routes'] as Record<string, unknown>)) {
    const template = routeTemplate(key);
    if (!routes.has(template)) routes.set(template, { key, descriptor: parseDescriptor(raw) });
  }
  return new SiteIndex({
    indexUrl,
    name: text(body['name']),
    description: text(body['description']),
    url: text(body['url']),
    home: text(body['home']),
    gmtOffset: parseGmtOffset(indexUrl, body['gmt_offset']),
    timezoneString: text(body['timezone_string']),
    namespaces: (body['namespaces'] as unknown[]).filter(
      (ns): ns is string => typeof ns === 'string',
    ),
    routes,
  });
}

/** Throws one SiteError listing every missing namespace, route and method. */
export function checkNeeds(index: SiteIndex, needs: readonly RouteNeed[]): void {
  const missing: string[] = [];
  const missingNamespaces = new Set<string>();
  for (const need of needs) {
    const route = typeof need === 'string' ? need : need.route;
    const methods = typeof need === 'string' ? ['GET'] : (need.methods ?? ['GET']);
    const descriptor = index.route(route);
    if (!descriptor) {
      const namespace = routeTemplate(route).split('/').slice(0, 2).join('/');
      if (namespace !== routeTemplate(route) && !index.namespaces.includes(namespace)) {
        if (!missingNamespaces.has(namespace)) {
          missingNamespaces.add(namespace);
          missing.push(
            `the namespace ${namespace} (it offers: ${index.namespaces.join(', ') || 'none'})`,
          );
        }
      } else {
        missing.push(`the route ${routeTemplate(route)}`);
      }
      continue;
    }
    const absent = methods
      .map((m) => m.toUpperCase())
      .filter((m) => !descriptor.methods.includes(m));
    if (absent.length > 0) {
      missing.push(
        `${absent.join('/')} on ${routeTemplate(route)} (it accepts ${descriptor.methods.join(', ')})`,
      );
    }
  }
  if (missing.length > 0) {
    throw new SiteError(
      index.indexUrl,
      `${index.indexUrl} lacks what cms-mirror needs: ${missing.join('; ')}`,
    );
  }
}

function parseDescriptor(raw: unknown): RouteDescriptor {
  const record = isRecord(raw) ? raw : {};
  const endpoints = Array.isArray(record['endpoints']) ? record['endpoints'] : [];
  const parsed = endpoints.filter(isRecord).map((endpoint): RouteEndpoint => ({
    methods: methodList(endpoint['methods']),
    args: isRecord(endpoint['args']) ? (endpoint['args'] as Record<string, ArgDescriptor>) : {},
    allowBatch: isRecord(endpoint['allow_batch']) && endpoint['allow_batch']['v1'] === true,
  }));
  const methods = methodList(record['methods']);
  return {
    namespace: text(record['namespace']),
    methods: methods.length > 0 ? methods : [...new Set(parsed.flatMap((e) => e.methods))],
    endpoints: parsed,
  };
}

/** Methods as a list; servers send either an array or an object `{GET: true}`. */
function methodList(value: unknown): string[] {
  if (Array.isArray(value))
    return value.filter((m): m is string => typeof m === 'string').map((m) => m.toUpperCase());
  if (isRecord(value)) return Object.keys(value).map((m) => m.toUpperCase());
  return [];
}

function parseGmtOffset(indexUrl: string, value: unknown): number {
  if (value === undefined || value === null || value === '') return 0;
  const offset = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(offset) || Math.abs(offset) > 14) {
    throw new SiteError(
      indexUrl,
      `${indexUrl} gives gmt_offset ${JSON.stringify(value)}: expected hours between -14 and 14`,
    );
  }
  return offset;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
