import { describe, expect, it } from 'vitest';
import { editApplied, fetchItems, findCreated } from '../../../src/push/already-applied.js';
import type { Edit } from '../../../src/store/index.js';
import { FakeEditSite } from '../../helpers/fake-edit-site.js';

/**
 * A write whose answer was lost may have landed: push asks the site before writing again
 * (issue 11, mutation testing of push's recovery of lost answers). An item that already holds
 * the edit needs no write; a create the site already has is adopted, never made twice.
 */
function edit(id: number, fields: Record<string, unknown>, itemId: number | null = null): Edit {
  return {
    id,
    lang: 'pl',
    type: 'posts',
    itemId,
    file: null,
    fields,
    baseModifiedGmt: null,
    state: 'pending',
    error: null,
    createdAt: '2024-05-01T10:00:00',
    updatedAt: '2024-05-01T10:00:00',
  };
}

/** An item as the site answers it in the edit context. */
function item(fields: Record<string, unknown>): Record<string, unknown> & { id: number } {
  return { id: 7, status: 'publish', slug: 'hello', ...fields };
}

describe('editApplied: does the site’s item already hold every field of the edit?', () => {
  it('yes when every field the edit writes is there (text fields read from raw), whatever else differs', () => {
    const site = item({
      title: { raw: 'Hello', rendered: 'Hello' },
      content: { raw: 'Body', rendered: '<p>Body</p>' },
      excerpt: { raw: 'Short', rendered: '<p>Short</p>' },
      status: 'draft',
      menu_order: 4,
    });
    expect(
      editApplied(
        edit(1, { title: 'Hello', content: 'Body', status: 'draft', excerpt: 'Short' }),
        site,
      ),
    ).toBe(true);
    expect(editApplied(edit(1, { title: 'Hello', status: 'publish' }), site)).toBe(false);
    expect(editApplied(edit(1, { excerpt: 'Other' }), site)).toBe(false);
    expect(editApplied(edit(1, { content: '<p>Body</p>' }), site)).toBe(false);
  });

  it('compares a local date with the item’s, also when the item has a GMT date', () => {
    const site = item({ date_gmt: '2024-05-01T08:00:00', date: '2024-05-01T10:00:00' });
    expect(editApplied(edit(1, { date: '2024-05-01T10:00:00' }), site)).toBe(true);
    expect(editApplied(edit(1, { date: '2024-05-01T11:00:00' }), site)).toBe(false);
    expect(editApplied(edit(1, { date_gmt: '2024-05-01T08:00:00Z' }), site)).toBe(true);
  });

  it('compares slugs as text, percent-encoded or not, on either side', () => {
    const encoded = item({ slug: 'za%c5%bc%c3%b3%c5%82%c4%87' });
    expect(editApplied(edit(1, { slug: 'zażółć' }), encoded)).toBe(true);
    expect(editApplied(edit(1, { slug: 'za%C5%BC%C3%B3%C5%82%C4%87' }), encoded)).toBe(true);
    expect(editApplied(edit(1, { slug: 'zazolc' }), encoded)).toBe(false);
    const plain = item({ slug: 'zażółć' });
    expect(editApplied(edit(1, { slug: 'za%c5%bc%c3%b3%c5%82%c4%87' }), plain)).toBe(true);
  });

  it('compares a slug that is not valid percent-encoding as it is written', () => {
    const site = item({ slug: '100%-sure' });
    expect(editApplied(edit(1, { slug: '100%-sure' }), site)).toBe(true);
    expect(editApplied(edit(1, { slug: '50%-sure' }), site)).toBe(false);
  });

  it('no when the edit names a slug and the item has none', () => {
    const site = { id: 7, status: 'publish' };
    expect(editApplied(edit(1, { slug: 'hello' }), site)).toBe(false);
    // Whatever the slug's text: "undefined" is a slug like any other.
    expect(editApplied(edit(1, { slug: 'undefined' }), site)).toBe(false);
  });
});

describe('fetchItems: the items with these ids as an editor sees them', () => {
  it('finds items of every status, trash included, with their raw text, per_page ids per request', async () => {
    const site = new FakeEditSite();
    for (const [n, status] of [
      'publish',
      'draft',
      'private',
      'pending',
      'future',
      'trash',
    ].entries()) {
      site.add({ id: n + 1, status, title: `Title ${n + 1}` });
    }
    const found = await fetchItems(site.client(), 'posts', [6, 1, 2, 3, 4, 5, 9], 3);
    expect([...found.keys()].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(found.get(6)).toMatchObject({ id: 6, status: 'trash', title: { raw: 'Title 6' } });
    expect(site.queries.map((query) => query['include'])).toEqual([[1, 2, 3], [4, 5, 6], [9]]);
  });

  it('reads a whole chunk of up to per_page ids in one request, past the site’s default page size', async () => {
    const site = new FakeEditSite();
    const ids = Array.from({ length: 12 }, (_, n) => n + 1);
    for (const id of ids) site.add({ id });
    const found = await fetchItems(site.client(), 'pages', ids, 100);
    expect([...found.keys()].sort((a, b) => a - b)).toEqual(ids);
    expect(site.queries).toHaveLength(1);
  });

  it('ignores records without a numeric id', async () => {
    const site = new FakeEditSite();
    site.add({ id: 1 });
    site.junk.push({ id: '2' }, { title: 'no id' });
    const found = await fetchItems(site.client(), 'posts', [1, 2], 10);
    expect([...found.keys()]).toEqual([1]);
  });
});

describe('findCreated: the site’s item that already is a create', () => {
  it('adopts, by slug, the item that holds every field of the create, whatever its status', async () => {
    const site = new FakeEditSite();
    site.add({ id: 10, slug: 'first', title: 'First', content: 'One', status: 'private' });
    site.add({ id: 11, slug: 'second', title: 'Second', content: 'Changed on the site' });
    site.add({ id: 12, slug: 'third', title: 'Third', content: 'Three', status: 'trash' });
    const creates = [
      edit(1, { slug: 'first', title: 'First', content: 'One', status: 'private' }),
      edit(2, { slug: 'second', title: 'Second', content: 'Two' }),
      edit(3, { slug: 'third', title: 'Third', content: 'Three', status: 'trash' }),
    ];
    const found = await findCreated(site.client(), 'posts', creates, 10);
    expect([...found].map(([editId, adopted]) => [editId, adopted.id])).toEqual([
      [1, 10],
      [3, 12],
    ]);
    // One request for the three slugs.
    expect(site.queries.map((query) => query['slug'])).toEqual([['first', 'second', 'third']]);
  });

  it('looks slugs up a per_page chunk at a time, sending them decoded', async () => {
    const site = new FakeEditSite();
    site.add({ id: 10, slug: 'za%c5%bc%c3%b3%c5%82%c4%87', title: 'Z', content: 'z' });
    site.add({ id: 11, slug: 'b', title: 'B', content: 'b' });
    site.add({ id: 12, slug: 'c', title: 'C', content: 'c' });
    const creates = [
      edit(1, { slug: 'za%C5%BC%C3%B3%C5%82%C4%87', title: 'Z', content: 'z' }),
      edit(2, { slug: 'b', title: 'B', content: 'b' }),
      edit(3, { slug: 'c', title: 'C', content: 'c' }),
    ];
    const found = await findCreated(site.client(), 'posts', creates, 2);
    expect([...found].map(([editId, adopted]) => [editId, adopted.id])).toEqual([
      [1, 10],
      [2, 11],
      [3, 12],
    ]);
    expect(site.queries.map((query) => query['slug'])).toEqual([['zażółć', 'b'], ['c']]);
  });

  it('adopts one item per create: two identical creates take the two oldest copies, a third makes its own', async () => {
    const site = new FakeEditSite();
    for (const id of [21, 20]) site.add({ id, slug: 'same', title: 'Same', content: 'Same' });
    const fields = { slug: 'same', title: 'Same', content: 'Same' };
    const found = await findCreated(
      site.client(),
      'posts',
      [edit(1, fields), edit(2, fields), edit(3, fields)],
      10,
    );
    expect([...found].map(([editId, adopted]) => [editId, adopted.id])).toEqual([
      [1, 20],
      [2, 21],
    ]);
  });

  it('without a slug, searches for the trimmed title; without a title, asks nothing', async () => {
    const site = new FakeEditSite();
    site.add({ id: 30, slug: 'a-title', title: ' A title ', content: 'Body', status: 'draft' });
    site.add({ id: 31, slug: 'a-title-2', title: 'A title', content: 'Other body' });
    const found = await findCreated(
      site.client(),
      'pages',
      [
        edit(1, { title: ' A title ', content: 'Body', status: 'draft' }),
        edit(2, { title: '   ', content: 'Body' }),
        edit(3, { content: 'Body' }),
      ],
      10,
    );
    expect([...found].map(([editId, adopted]) => [editId, adopted.id])).toEqual([[1, 30]]);
    expect(site.queries.map((query) => query['search'])).toEqual(['A title']);
  });

  it('finds a create the site holds past its default page of 10 answers', async () => {
    const site = new FakeEditSite();
    // Twelve posts match the search; the one that is the create is the oldest, listed last.
    site.add({ id: 40, slug: 'x', title: 'Common', content: 'Mine', status: 'draft' });
    for (let id = 41; id <= 51; id++) site.add({ id, title: 'Common', content: `Other ${id}` });
    const found = await findCreated(
      site.client(),
      'posts',
      [edit(1, { title: 'Common', content: 'Mine', status: 'draft' })],
      100,
    );
    expect(found.get(1)?.id).toBe(40);
  });

  it('ignores records without a numeric id', async () => {
    const site = new FakeEditSite();
    site.junk.push({ id: 'x', slug: 'a', title: 'A', content: 'a' });
    const found = await findCreated(
      site.client(),
      'posts',
      [edit(1, { slug: 'a', title: 'A', content: 'a' })],
      10,
    );
    expect(found.size).toBe(0);
  });
});
