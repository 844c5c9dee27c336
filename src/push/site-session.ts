import {
  CmsClient,
  discoverSite,
  type ClientEvent,
  type RouteNeed,
  type SiteIndex,
} from '../client/index.js';
import { CHECKOUT_TYPES, collectionRoute } from '../collections.js';
import type { Credentials } from '../config/settings.js';
import type { HttpSettings } from '../config/pipeline-schema.js';

/** A client for one language of one site, with the site index read once. */
export interface SiteSession {
  readonly lang: string;
  readonly client: CmsClient;
  readonly index: SiteIndex;
}

export interface OpenSessionOptions {
  readonly site: string;
  readonly lang: string;
  readonly credentials: Credentials | undefined;
  readonly http?: Partial<HttpSettings>;
  /** Routes the caller cannot work without (checked once, one error for all missing). */
  readonly needs?: readonly RouteNeed[];
  readonly onEvent?: (event: ClientEvent) => void;
}

/** The routes push writes through. */
export const PUSH_NEEDS: readonly RouteNeed[] = [
  ...CHECKOUT_TYPES.flatMap((type): RouteNeed[] => [
    { route: collectionRoute(type), methods: ['GET', 'POST'] },
    { route: `${collectionRoute(type)}/{id}`, methods: ['GET', 'POST', 'DELETE'] },
  ]),
  { route: 'batch/v1', methods: ['POST'] },
];

export async function openSiteSession(options: OpenSessionOptions): Promise<SiteSession> {
  const client = new CmsClient({
    site: options.site,
    lang: options.lang,
    auth: options.credentials,
    ...(options.http ?? {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  });
  try {
    const index = await discoverSite(client, options.needs ?? []);
    return { lang: options.lang, client, index };
  } catch (error) {
    await client.close();
    throw error;
  }
}
