import type { CmsClient, Query } from '../../src/client/index.js';

/**
 * An in-memory collection as an editor's list requests see it (cms-rest-interface.md, post
 * list parameters): `status` defaults to `publish`, and only `context=edit` shows the other
 * statuses and the `raw` text fields (`view` gives `rendered` only, and content is rendered as
 * HTML paragraphs); `include`, `slug` (compared as the site does, percent-decoded) and `search`
 * (title or content) filter; `orderby=id&order=asc` sorts by id, anything else newest first;
 * `per_page` defaults to 10 and `page` to 1. Only `listPage` is offered: what push's
 * look-ups use. Written from the interface, not from the code under test.
 */
export interface EditSiteRecord {
  id: number;
  status: string;
  slug: string;
  title: string;
  content: string;
  modified_gmt: string;
  [field: string]: unknown;
}

export class FakeEditSite {
  readonly records: EditSiteRecord[] = [];
  /** Every list request, in order. */
  readonly queries: Query[] = [];
  /** Records sent at the end of every answer as they are (a server's junk). */
  readonly junk: unknown[] = [];

  add(record: Partial<EditSiteRecord> & { id: number }): EditSiteRecord {
    const full: EditSiteRecord = {
      status: 'publish',
      slug: `item-${record.id}`,
      title: `Item ${record.id}`,
      content: `Text of ${record.id}`,
      modified_gmt: '2024-05-01T10:00:00',
      ...record,
    };
    this.records.push(full);
    return full;
  }

  client(): CmsClient {
    const client = {
      options: { site: 'https://edit.test' },
      listPage: async (_route: string, query: Query = {}) => this.#page(query),
    };
    return client as unknown as CmsClient;
  }

  #page(query: Query) {
    this.queries.push(query);
    const edit = query['context'] === 'edit';
    const statuses = [query['status'] ?? 'publish'].flat() as string[];
    const include = query['include'] === undefined ? undefined : [query['include']].flat();
    const slugs =
      query['slug'] === undefined ? undefined : ([query['slug']].flat() as string[]).map(decoded);
    const search = typeof query['search'] === 'string' ? query['search'].toLowerCase() : undefined;
    const matching = this.records.filter(
      (record) =>
        statuses.includes(record.status) &&
        (edit || record.status === 'publish') &&
        (include === undefined || include.includes(record.id)) &&
        (slugs === undefined || slugs.includes(decoded(record.slug))) &&
        (search === undefined ||
          `${record.title} ${record.content}`.toLowerCase().includes(search)),
    );
    const ascending = query['orderby'] === 'id' && query['order'] === 'asc';
    matching.sort((a, b) => (ascending ? a.id - b.id : b.id - a.id));
    const perPage = Number(query['per_page'] ?? 10);
    const page = Number(query['page'] ?? 1);
    const items = matching
      .slice((page - 1) * perPage, page * perPage)
      .map((record) => answer(record, edit));
    const totalPages = Math.ceil(matching.length / perPage);
    return {
      items: [...items, ...this.junk],
      page,
      perPage,
      total: matching.length,
      totalPages,
      hasNext: page < totalPages,
    };
  }
}

function answer(record: EditSiteRecord, edit: boolean): Record<string, unknown> {
  const { title, content, ...rest } = record;
  const rendered = `<p>${content}</p>\n`;
  return {
    ...rest,
    title: edit ? { raw: title, rendered: title } : { rendered: title },
    content: edit ? { raw: content, rendered } : { rendered },
  };
}

function decoded(slug: string): string {
  try {
    return decodeURIComponent(slug).toLowerCase();
  } catch {
    return slug.toLowerCase();
  }
}
