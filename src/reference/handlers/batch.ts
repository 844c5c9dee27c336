import { parseQueryString } from '../query-string.js';
import { RestError } from '../rest-error.js';
import { json } from '../route-types.js';
import type { Handler, HttpMethod, RestRequest, RestResponse } from '../route-types.js';

/**
 * `POST /batch/v1`: up to 25 sub-requests to `allow_batch` endpoints, answered 207 with one
 * sub-response per request, in order. `require-all-validate` matches and validates every
 * request first and runs none if any fails (`failed: "validation"`, valid ones as null).
 * With the `batchCut` fault only the first sub-requests run (the HTTP layer drops the answer).
 */
interface BatchItem {
  method?: HttpMethod;
  path: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string | string[]>;
}

interface SubResponse {
  body: unknown;
  status: number;
  headers: Record<string, string> | [];
}

function toSub(response: RestResponse | RestError): SubResponse {
  if (response instanceof RestError)
    return { body: response.toBody(), status: response.status, headers: [] };
  const headers = { ...response.headers };
  return {
    body: response.body,
    status: response.status,
    headers: Object.keys(headers).length > 0 ? headers : [],
  };
}

export const batchHandler: Handler = (context) => {
  const items = context.params.requests as BatchItem[];
  const subRequests: RestRequest[] = items.map((item) => {
    const at = item.path.indexOf('?');
    const path = at >= 0 ? item.path.slice(0, at) : item.path;
    const rawQuery = at >= 0 ? item.path.slice(at + 1) : '';
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(item.headers ?? {})) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    return {
      method: item.method ?? 'POST',
      path,
      query: parseQueryString(rawQuery),
      rawQuery,
      body: item.body ?? {},
      user: context.user,
      headers,
    };
  });
  const prepared = subRequests.map((request) =>
    context.dispatcher.prepare(request, { batch: true }),
  );
  if (
    context.params.validation === 'require-all-validate' &&
    prepared.some((p) => p instanceof RestError)
  ) {
    return json(
      {
        failed: 'validation',
        responses: prepared.map((p) => (p instanceof RestError ? toSub(p) : null)),
      },
      207,
    );
  }
  // A cut batch (fault injection) stops after its first sub-requests; its answer is dropped.
  const carried = prepared.slice(0, context.request.batchCut ?? prepared.length);
  const responses = carried.map((p) =>
    toSub(p instanceof RestError ? p : context.dispatcher.execute(p)),
  );
  return json({ failed: null, responses }, 207);
};
