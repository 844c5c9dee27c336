import type { CmsClient, Query } from '../../src/client/index.js';

/**
 * An in-memory list server with just what the crawler asks of a collection (modified_after /
 * modified_before strict, orderby modified|id asc, page, per_page, include, X-CMS-Total, Date)
 * and a hook that runs before every request, so tests can change the site mid-crawl
 * deterministically. Used through `client()`, which looks like a CmsClient to the crawler.
 */
export interface FakeItem {
  id: number;
  /** Epoch seconds. */
  modified: number;
  version: number;
  status: string;
  /** Pages only: a slug and a parent make the item carry `parent` and a `link` of the slugs. */
  slug?: string;
  parent?: number;
}

export class FakeSite {
  readonly items = new Map<number, FakeItem>();
  /** The server clock, epoch seconds. */
  now = Date.parse('2024-06-01T12:00:00Z') / 1000;
  requests: Query[] = [];
  /** Runs before each request is answered (request number from 1). */
  beforeRequest: ((n: number) => void) | undefined;
  sendTotals = true;
  /** Records returned as they are, in place of the item with this id. */
  readonly replacements = new Map<number, unknown>();
  #nextId = 1;

  /** Adds `count` published items modified at `modified`, `step` seconds apart. */
  add(count: number, modified = this.now, step = 0): FakeItem[] {
    const added: FakeItem[] = [];
    for (let n = 0; n < count; n += 1) {
      const item = {
        id: this.#nextId++,
        modified: modified + n * step,
        version: 1,
        status: 'publish',
      };
      this.items.set(item.id, item);
      added.push(item);
    }
    return added;
  }

  edit(id: number): void {
    const item = this.items.get(id);
    if (!item) throw new Error(`no item ${id}`);
    item.version += 1;
    item.modified = this.now;
  }

  json(item: FakeItem): Record<string, unknown> {
    return {
      id: item.id,
      modified_gmt: gmt(item.modified),
      status: item.status,
      content: { rendered: `<p>v${item.version}</p>`, protected: false },
      version: item.version,
      ...(item.slug === undefined ? {} : { parent: item.parent ?? 0, link: this.link(item) }),
    };
  }

  /** `https://fake.test/{ancestor slugs...}/{slug}/`, stopping at a parent cycle. */
  link(item: FakeItem): string {
    const slugs = [item.slug ?? String(item.id)];
    const seen = new Set([item.id]);
    let parent = this.items.get(item.parent ?? 0);
    while (parent !== undefined && !seen.has(parent.id)) {
      slugs.unshift(parent.slug ?? String(parent.id));
      seen.add(parent.id);
      parent = this.items.get(parent.parent ?? 0);
    }
    return `https://fake.test/${slugs.join('/')}/`;
  }

  list(query: Query): { data: unknown[]; headers: Record<string, string> } {
    this.requests.push(query);
    this.beforeRequest?.(this.requests.length);
    const after = time(query['modified_after']);
    const before = time(query['modified_before']);
    const include = query['include'] as number[] | undefined;
    const parent = query['parent'] as number[] | undefined;
    let matching = [...this.items.values()].filter(
      (item) =>
        item.status === 'publish' &&
        (after === undefined || item.modified > after) &&
        (before === undefined || item.modified < before) &&
        (include === undefined || include.includes(item.id)) &&
        (parent === undefined || parent.includes(item.parent ?? 0)),
    );
    matching =
      query['orderby'] === 'modified'
        ? matching.sort((a, b) => a.modified - b.modified || a.id - b.id)
        : matching.sort((a, b) => a.id - b.id);
    const perPage = Number(query['per_page'] ?? 10);
    const page = Number(query['page'] ?? 1);
    const slice = matching.slice((page - 1) * perPage, page * perPage);
    const headers: Record<string, string> = { date: new Date(this.now * 1000).toUTCString() };
    if (this.sendTotals) headers['x-cms-total'] = String(matching.length);
    return {
      data: slice.map((item) => this.replacements.get(item.id) ?? this.json(item)),
      headers,
    };
  }

  /** A stand-in for the language's CmsClient (only `get` is used by the crawl). */
  client(options: { failAfter?: number } = {}): CmsClient {
    const fake = {
      hasCredentials: false,
      options: { site: 'https://fake.test' },
      get: async (_route: string, query: Query = {}) => {
        if (options.failAfter !== undefined && this.requests.length >= options.failAfter) {
          throw new Error('killed');
        }
        const { data, headers } = this.list(query);
        return { status: 200, headers, data, url: 'https://fake.test/' };
      },
    };
    return fake as unknown as CmsClient;
  }

  /** The live set as the cache should hold it: id → JSON. */
  expected(): Map<number, Record<string, unknown>> {
    return new Map(
      [...this.items.values()]
        .filter((item) => item.status === 'publish')
        .map((item) => [item.id, this.json(item)]),
    );
  }
}

export function gmt(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 19);
}

function time(value: unknown): number | undefined {
  return typeof value === 'string' ? Date.parse(value) / 1000 : undefined;
}
