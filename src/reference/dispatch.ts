import { RestError, noRoute } from './rest-error.js';
import { apiRoot } from './render.js';
import type {
  Dispatcher,
  PreparedRequest,
  RestRequest,
  RestResponse,
  RouteDef,
} from './route-types.js';
import { applyFieldsFilter } from './serialize.js';
import type { SiteState } from './site-state.js';
import { validateParams } from './validate-args.js';

/**
 * Route matching, parameter validation and handler calls for one language. Order as servers
 * do it: match route and method (404 rest_no_route), required and invalid parameters (400),
 * then the handler, which checks permissions itself.
 */
function normalizePath(path: string): string {
  if (path === '' || path === '/') return '/';
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

export function errorResponse(error: RestError): RestResponse {
  return { status: error.status, body: error.toBody(), headers: {} };
}

/** Matches route and method, then validates the parameters (the handler is not called). */
function prepareRequest(
  routes: readonly RouteDef[],
  request: RestRequest,
  options: { batch?: boolean },
): PreparedRequest | RestError {
  const path = normalizePath(request.path);
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    const endpoint = route.endpoints.find((candidate) =>
      candidate.methods.includes(request.method),
    );
    if (!endpoint) continue;
    if (options.batch && !endpoint.allowBatch) {
      return new RestError(
        400,
        'rest_batch_not_allowed',
        'The requested route does not support batch requests.',
      );
    }
    const urlParams: Record<string, string> = { ...(match.groups ?? {}) };
    // Precedence: URL parameters over body over query (the route's own ids always win).
    const merged: Record<string, unknown> = {
      ...request.query,
      ...(request.body ?? {}),
      ...urlParams,
    };
    try {
      const params = validateParams(endpoint.args, merged, {
        authenticated: request.user !== undefined,
      });
      return { request, route, endpoint, urlParams, params };
    } catch (error) {
      if (error instanceof RestError) return error;
      throw error;
    }
  }
  return noRoute();
}

export function createDispatcher(
  site: SiteState,
  lang: string,
  routes: readonly RouteDef[],
): Dispatcher {
  const store = site.stores.get(lang);
  if (!store) throw new Error(`unknown language ${lang}`);

  const prepare = (request: RestRequest, options: { batch?: boolean } = {}) =>
    prepareRequest(routes, request, options);

  const execute = (prepared: PreparedRequest): RestResponse => {
    const { request, route, endpoint, params, urlParams } = prepared;
    try {
      const response = endpoint.handler({
        site,
        store,
        lang,
        root: apiRoot(site.base, lang),
        request,
        params,
        urlParams,
        route,
        routes,
        user: request.user,
        dispatcher,
      });
      const allow = [...new Set(route.endpoints.flatMap((candidate) => candidate.methods))].join(
        ', ',
      );
      const fields = request.query._fields;
      const body =
        typeof fields === 'string' && response.status < 400 && response.raw === undefined
          ? applyFieldsFilter(response.body, fields)
          : response.body;
      return { ...response, body, headers: { Allow: allow, ...response.headers } };
    } catch (error) {
      if (error instanceof RestError) return errorResponse(error);
      throw error;
    }
  };

  const handle = (request: RestRequest): RestResponse => {
    const prepared = prepare(request);
    return prepared instanceof RestError ? errorResponse(prepared) : execute(prepared);
  };

  const dispatcher: Dispatcher = { prepare, execute, handle };
  return dispatcher;
}
