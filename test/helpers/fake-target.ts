import type { Query } from '../../src/client/index.js';
import { HttpError } from '../../src/errors.js';
import type { SiteSession } from '../../src/push/site-session.js';

/**
 * An in-memory migration target with what recovery and item creation ask of a site: list
 * pages by `include`, `slug`, `search` and `status` (`context=edit`), batches of creates
 * (`batch/v1`, `normal` validation) and single `POST`s; a `POST` to `route/{id}` updates the
 * item's text fields (404 when it is not there). Items are stored as the site would
 * answer them (`title`/`content`/`excerpt` as `{raw, rendered}`, `link` from the slug). A
 * create whose title is in `refuse` is answered 400, as a site refuses a bad field.
 */
export type TargetItem = Record<string, unknown> & { id: number };

export class FakeTarget {
  /** Items per route (`cms/v2/posts`, ...). */
  readonly items = new Map<string, TargetItem[]>();
  /** Every request: method, route and query or body. */
  readonly requests: {
    method: string;
    route: string;
    query?: Query;
    body?: unknown;
    idempotent?: boolean | undefined;
  }[] = [];
  /** Runs before each write is answered; throwing there is a connection lost mid-run. */
  beforeWrite: ((body: Record<string, unknown>) => void) | undefined;
  /** Titles whose create the site refuses. */
  readonly refuse = new Set<string>();
  /** Whether the site allows batches of creates. */
  batch = true;
  perPage = 100;
  batchMax = 25;
  #nextId = 500;

  /** Puts an item on the target as a person (or an earlier run) made it. */
  put(route: string, item: Record<string, unknown>): TargetItem {
    const stored = { id: this.#nextId++, parent: 0, ...item } as TargetItem;
    this.#list(route).push(stored);
    return stored;
  }

  /** Creates an item from a create body, as the site does. */
  create(route: string, body: Record<string, unknown>): TargetItem {
    const slug = typeof body.slug === 'string' ? body.slug : '';
    return this.put(route, {
      slug,
      status: body.status ?? 'draft',
      date_gmt: body.date_gmt,
      parent: body.parent ?? 0,
      title: { raw: body.title ?? '', rendered: body.title ?? '' },
      content: { raw: body.content ?? '', rendered: body.content ?? '' },
      excerpt: { raw: body.excerpt ?? '', rendered: body.excerpt ?? '' },
      link: `https://target.test/${slug === '' ? `?p=${this.#nextId}` : `${slug}/`}`,
    });
  }

  #list(route: string): TargetItem[] {
    const list = this.items.get(route) ?? [];
    this.items.set(route, list);
    return list;
  }

  #matching(route: string, query: Query): TargetItem[] {
    const has = (key: string) => query[key] !== undefined;
    const list = (key: string) => [query[key]].flat() as unknown[];
    return this.#list(route).filter(
      (item) =>
        (!has('status') || list('status').includes(item.status)) &&
        (!has('include') || list('include').includes(item.id)) &&
        (!has('slug') || list('slug').includes(item.slug)) &&
        (!has('search') ||
          String((item.title as { raw?: unknown } | undefined)?.raw ?? '').includes(
            String(query['search']),
          )),
    );
  }

  #page(route: string, query: Query) {
    this.requests.push({ method: 'GET', route, query });
    const perPage = Number(query['per_page'] ?? 10);
    const page = Number(query['page'] ?? 1);
    const all = this.#matching(route, query);
    const items = all.slice((page - 1) * perPage, page * perPage);
    const totalPages = Math.ceil(all.length / perPage);
    return {
      items,
      page,
      perPage,
      total: all.length,
      totalPages,
      hasNext: page < totalPages,
    };
  }

  #post(route: string, body: Record<string, unknown>): { status: number; body: unknown } {
    this.beforeWrite?.(body);
    const update = /^(.+)\/(\d+)$/.exec(route);
    if (update !== null) return this.#update(update[1]!, Number(update[2]), body);
    if (this.refuse.has(String(body.title))) {
      return {
        status: 400,
        body: { code: 'rest_invalid_param', message: `Invalid parameter(s): title` },
      };
    }
    return { status: 201, body: this.create(route, body) };
  }

  /** An update of an item's text fields (`POST route/{id}`), as the site answers it. */
  #update(route: string, id: number, body: Record<string, unknown>) {
    const item = this.#list(route).find((candidate) => candidate.id === id);
    if (item === undefined)
      return { status: 404, body: { code: 'rest_post_invalid_id', message: 'Invalid post ID.' } };
    for (const field of ['title', 'content', 'excerpt'] as const) {
      if (typeof body[field] === 'string')
        item[field] = { raw: body[field], rendered: body[field] };
    }
    return { status: 200, body: item };
  }

  /** A session on this target (only what the migration's recovery and creation use). */
  session(lang = 'pl'): SiteSession {
    const page = (route: string, query: Query) => this.#page(route, query);
    const client = {
      options: { site: 'https://target.test' },
      listPage: async (route: string, query: Query = {}) => this.#page(route, query),
      paginate: async function* (this: void, route: string, query: Query = {}) {
        for (let number = 1; ; number += 1) {
          const answer = page(route, { ...query, page: number });
          yield answer;
          if (!answer.hasNext) return;
        }
      },
      batch: async (
        requests: readonly { path: string; body?: Record<string, unknown> }[],
        validation: string,
        options: { idempotent?: boolean } = {},
      ) => {
        this.requests.push({
          method: 'POST',
          route: 'batch/v1',
          query: { validation },
          body: requests,
          idempotent: options.idempotent,
        });
        return {
          failed: null,
          responses: requests.map((request) => ({
            ...this.#post(request.path.replace(/^\//, ''), request.body ?? {}),
            headers: {},
          })),
        };
      },
      request: async (
        method: string,
        route: string,
        options: { body?: unknown; idempotent?: boolean } = {},
      ) => {
        this.requests.push({ method, route, body: options.body, idempotent: options.idempotent });
        const answer = this.#post(route, (options.body ?? {}) as Record<string, unknown>);
        if (answer.status >= 400) {
          const error = answer.body as { code: string; message: string };
          throw new HttpError({
            status: answer.status,
            method,
            url: `https://target.test/${route}`,
            serverCode: error.code,
            serverMessage: error.message,
          });
        }
        return { status: answer.status, headers: {}, data: answer.body, url: '' };
      },
    };
    const index = {
      url: 'https://target.test',
      home: 'https://target.test/',
      perPageMax: () => this.perPage,
      // As the real index: batch writes are POSTs (the only method this target batches).
      allowsBatch: (_route: string, method: string) => this.batch && method === 'POST',
      batchMaxItems: () => this.batchMax,
    };
    return { lang, client, index } as unknown as SiteSession;
  }
}
