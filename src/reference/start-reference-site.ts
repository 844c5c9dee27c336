import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors.js';
import { createControl } from './control.js';
import type { ReferenceControl } from './control.js';
import { createDispatcher } from './dispatch.js';
import { FaultInjector } from './faults.js';
import type { FaultSpec } from './faults.js';
import { createRequestListener } from './http-server.js';
import { ROUTES } from './route-table.js';
import type { Dispatcher } from './route-types.js';
import { seedSite } from './seed.js';
import type { RequestLogEntry, SiteState } from './site-state.js';
import type { LangStore } from './store.js';
import { createUsers, type User } from './users.js';

/** Options of the embedded reference site (the `cms-mirror reference` flags map onto them). */
export interface ReferenceOptions {
  /** Interface to bind; only loopback addresses make sense. @default '127.0.0.1' */
  readonly host?: string;
  /** Port to listen on; 0 picks a free one. @default 0 */
  readonly port?: number;
  /** Seed of the content: the same seed gives the same content. @default 'cms-mirror' */
  readonly seed?: string;
  /** Posts per language (the first 24 are rich, the rest short). @default 24 */
  readonly posts?: number;
  /** Pages per language. @default 8 */
  readonly pages?: number;
  /** Media items per language. @default 6 */
  readonly media?: number;
  /** Language path segments served. @default ['pl', 'es'] */
  readonly languages?: readonly string[];
  /** Injected faults, as a FaultSpec or a string like `latency=20ms,error=0.1`. @default none */
  readonly faults?: FaultSpec | string;
  /** Add items with hostile slugs, links and file names. @default false */
  readonly hostile?: boolean;
  /**
   * Media attached to a post or page follow its visibility, as on deployed servers: one
   * attached to a draft is counted in an anonymous reader's `X-CMS-Total` but left out of the
   * list, and reading it answers 401 `rest_forbidden`. @default false
   */
  readonly attachmentsFollowParent?: boolean;
  /**
   * Let editors delete revisions (`DELETE .../revisions/{id}?force=true`), as the interface
   * allows. Deployed servers may refuse it for every user (403 `rest_cannot_delete`, whatever
   * `force` says; observed-behaviour.md, Items), and so does this site by default. @default false
   */
  readonly deletableRevisions?: boolean;
  /** Send `_links["version-history"][0].count` on items (false: a server that omits it). @default true */
  readonly versionCounts?: boolean;
  /**
   * Content also refers to media and items by URLs other than theirs, as deployed sites'
   * content does: size variants, another path prefix or scheme, relative URLs, links to files
   * in the uploads, short links (`?p=ID`). @default false
   */
  readonly urlVariants?: boolean;
  /**
   * Serve each language as a separate site: every language numbers its items on its own, so
   * the same id names unrelated items in two languages (observed-behaviour.md, Items).
   * @default false: one content set, a translation has its item's id
   */
  readonly independentIds?: boolean;
  /** The site's notion of "now" for writes. @default () => new Date() */
  readonly clock?: () => Date;
  /** Seed drafts and pending items with an empty slug (deployed servers do). @default false */
  readonly sluglessDrafts?: boolean;
  /**
   * Also hold this site's own items (by the second user) with the slugs and dates of two
   * top-level pages, a post and a media item of the site seeded with this seed: a migration
   * target that already has content. @default none
   */
  readonly overlapWith?: string;
  /**
   * How long an idle keep-alive connection stays open (Node's `server.keepAliveTimeout`). A
   * client may send a request on a connection just as the site closes it: the site never reads
   * that request (its log has no entry) and the client sees a reset and sends it again. A test
   * that compares the client's request count with the log sets this beyond any stall.
   * @default 5000
   */
  readonly keepAliveTimeoutMs?: number;
}

/** A login of the reference site's users: name and application password. */
export interface ReferenceCredentials {
  readonly user: string;
  readonly password: string;
}

export interface ReferenceSite {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The demo admin (user id 1). */
  readonly credentials: ReferenceCredentials;
  /** A second editor (user id 2), for "edited by someone else". */
  readonly otherCredentials: ReferenceCredentials;
  /** Valid credentials of weak roles: an author (id 3) and a subscriber (id 4). */
  readonly roleCredentials: {
    readonly author: ReferenceCredentials;
    readonly subscriber: ReferenceCredentials;
  };
  /** Every request served, in order of arrival. */
  readonly requests: RequestLogEntry[];
  readonly control: ReferenceControl;
  close(): Promise<void>;
}

function count(name: string, value: number | undefined, fallback: number): number {
  const result = value ?? fallback;
  if (!Number.isInteger(result) || result < 0) {
    throw new UsageError(`--${name} must be a whole number >= 0, got ${String(value)}`);
  }
  return result;
}

function languagesOf(value: readonly string[] | undefined): readonly string[] {
  const languages = value ?? ['pl', 'es'];
  if (languages.length === 0)
    throw new UsageError('The reference site needs at least one language.');
  for (const lang of languages) {
    if (!/^[a-z][a-z0-9-]{0,15}$/.test(lang)) {
      throw new UsageError(
        `"${lang}" is not a language path segment (lowercase letters, digits, hyphens).`,
      );
    }
  }
  if (new Set(languages).size !== languages.length)
    throw new UsageError('Languages must not repeat.');
  return [...languages];
}

/** Starts listening; the base URL (`http://host:port`) once it does. */
async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' || host.includes(':') ? `[${address.address}]` : host;
  return `http://${hostPart}:${address.port}`;
}

export async function startReferenceSite(options: ReferenceOptions = {}): Promise<ReferenceSite> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be between 0 and 65535, got ${String(options.port)}`);
  }
  const seed = options.seed ?? 'cms-mirror';
  const posts = count('posts', options.posts, 24);
  const pages = count('pages', options.pages, 8);
  const media = count('media', options.media, 6);
  const languages = languagesOf(options.languages);
  let injector = new FaultInjector(options.faults ?? {});
  const users = createUsers(seed);
  const stores = new Map<string, LangStore>();
  const site: SiteState = {
    base: '',
    seed,
    languages,
    stores,
    users,
    attachmentsFollowParent: options.attachmentsFollowParent ?? false,
    versionCounts: options.versionCounts ?? true,
    deletableRevisions: options.deletableRevisions ?? false,
    clock: options.clock ?? (() => new Date()),
    log: [],
  };
  const dispatchers = new Map<string, Dispatcher>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer(
    createRequestListener({ site, dispatchers, faults: () => injector, timers }),
  );
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5_000;
  site.base = await listen(server, port, host);
  // Seeding needs the base URL (links in content); no request can arrive before this returns.
  for (const [lang, store] of seedSite({
    seed,
    posts,
    pages,
    media,
    languages,
    hostile: options.hostile ?? false,
    independentIds: options.independentIds ?? false,
    base: site.base,
    sluglessDrafts: options.sluglessDrafts ?? false,
    overlapWith: options.overlapWith,
    urlVariants: options.urlVariants ?? false,
  })) {
    stores.set(lang, store);
    dispatchers.set(lang, createDispatcher(site, lang, ROUTES));
  }
  const [admin, editor, author, subscriber] = users as [User, User, User, User];
  let closed: Promise<void> | undefined;
  return {
    url: site.base,
    credentials: { user: admin.login, password: admin.password },
    otherCredentials: { user: editor.login, password: editor.password },
    roleCredentials: {
      author: { user: author.login, password: author.password },
      subscriber: { user: subscriber.login, password: subscriber.password },
    },
    requests: site.log,
    control: createControl(site, (next) => {
      injector = next;
    }),
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
