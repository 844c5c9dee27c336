import { buildNamespaceIndex, buildSiteIndex } from '../index-document.js';
import { json } from '../route-types.js';
import type { Handler } from '../route-types.js';

/** `GET /` and the namespace indexes (`GET /cms/v2`, ...), rendered from the route table. */
export const siteIndexHandler: Handler = (context) =>
  json(buildSiteIndex(context.site, context.store, context.routes, context.root));

export function namespaceIndexHandler(namespace: string): Handler {
  return (context) =>
    json(buildNamespaceIndex(namespace, context.routes, context.lang, context.root));
}
