import type { ArgSchema } from './arg-schema.js';
import type { Localized } from './localized.js';
import type { EndpointDef, RouteDef } from './route-types.js';

/** Small constructors the route table is written with. */
export function route(path: string, namespace: string, endpoints: EndpointDef[]): RouteDef {
  const pattern = new RegExp(`^${path.replace(/\(\?P</g, '(?<')}$`, 'i');
  return { path, namespace, endpoints, pattern };
}

export const str = (description: Localized, extra: Partial<ArgSchema> = {}): ArgSchema => ({
  type: 'string',
  description,
  ...extra,
});
export const int = (description: Localized, extra: Partial<ArgSchema> = {}): ArgSchema => ({
  type: 'integer',
  description,
  ...extra,
});
