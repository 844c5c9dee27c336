import type { LangStore } from './store.js';
import type { User } from './users.js';

/** One served request, as tests read it from `site.requests`. */
export interface RequestLogEntry {
  readonly method: string;
  /** Path after `/{lang}/cms-json` (e.g. `/cms/v2/posts`), or the full path for other URLs. */
  readonly path: string;
  readonly lang: string | undefined;
  readonly query: Readonly<Record<string, string | string[]>>;
  /** HTTP status sent; 0 when the connection was dropped by an injected fault. */
  status: number;
  readonly authenticated: boolean;
}

/** Everything handlers may read or change: the whole reference site in memory. */
export interface SiteState {
  /** Base URL without a trailing slash, known once the server listens. */
  base: string;
  readonly seed: string;
  readonly languages: readonly string[];
  readonly stores: ReadonlyMap<string, LangStore>;
  readonly users: readonly User[];
  /** Media attached to a post or page are readable only by who may read it (permissions.ts). */
  readonly attachmentsFollowParent: boolean;
  /** Items carry `_links["version-history"][0].count`; false: a server that leaves it out. */
  readonly versionCounts: boolean;
  /** Revisions can be deleted; false: 403 `rest_cannot_delete` for every user. */
  readonly deletableRevisions: boolean;
  clock: () => Date;
  readonly log: RequestLogEntry[];
}
