import { describe, expect, it } from 'vitest';
import {
  planRestore,
  relinkText,
  type LinkMap,
  type PlanInput,
  type WantedItem,
} from '../../../src/restore/index.js';

type Json = Record<string, unknown>;
type Type = WantedItem['type'];

const NO_LINKS: LinkMap = { ids: new Map(), fileIds: new Map(), urls: new Map() };

function post(id: number, fields: Json = {}): Json {
  return {
    id,
    status: 'publish',
    slug: `post-${id}`,
    title: { raw: `Post ${id}`, rendered: `Post ${id}` },
    excerpt: { raw: '', rendered: '' },
    content: { raw: `<p>Text of ${id}</p>`, rendered: `<p>Text of ${id}</p>` },
    date_gmt: '2026-01-01T10:00:00',
    modified_gmt: '2026-01-02T10:00:00',
    featured_media: 0,
    link: `http://site/pl/post-${id}/`,
    ...fields,
  };
}

function page(id: number, parent: number, fields: Json = {}): Json {
  return { ...post(id, fields), parent, link: `http://site/pl/page-${id}/` };
}

function image(id: number): Json {
  return {
    id,
    status: 'inherit',
    slug: `image-${id}`,
    title: { raw: `Image ${id}`, rendered: `Image ${id}` },
    caption: { raw: '', rendered: '' },
    alt_text: '',
    description: { raw: '', rendered: '' },
    source_url: `http://site/pl/cms-content/uploads/image-${id}.png`,
  };
}

function site(...items: [Type, Json][]): Map<string, Json> {
  return new Map(items.map(([type, json]) => [`${type}/${json['id'] as number}`, json]));
}

function plan(input: Partial<PlanInput> & { wanted: WantedItem[] }) {
  return planRestore({ site: new Map(), mapped: new Map(), links: NO_LINKS, ...input });
}

describe('planRestore', () => {
  it('leaves an item that is as wanted alone', () => {
    const result = plan({
      wanted: [{ type: 'posts', id: 1, json: post(1) }],
      site: site(['posts', post(1)]),
    });
    expect(result.actions).toEqual([]);
    expect(result.unchanged).toEqual(['posts/1']);
  });

  it('updates only the fields that differ, raw text compared', () => {
    const now = post(1, { title: { raw: 'Bulk', rendered: 'Bulk' }, slug: 'bulk-1' });
    const result = plan({
      wanted: [{ type: 'posts', id: 1, json: post(1) }],
      site: site(['posts', now]),
    });
    expect(result.actions).toHaveLength(1);
    expect(result.actions[0]).toMatchObject({
      kind: 'update',
      id: 1,
      body: { title: 'Post 1', slug: 'post-1' },
      modified: '2026-01-02T10:00:00',
    });
    expect(Object.keys((result.actions[0] as { body: Json }).body).sort()).toEqual([
      'slug',
      'title',
    ]);
  });

  it('takes a trashed item out of the trash by its status, with its old slug back', () => {
    const trashed = post(2, { status: 'trash', slug: 'post-2__trashed' });
    const result = plan({
      wanted: [{ type: 'posts', id: 2, json: post(2) }],
      site: site(['posts', trashed]),
    });
    expect(result.actions).toEqual([
      expect.objectContaining({
        kind: 'untrash',
        id: 2,
        body: { status: 'publish', slug: 'post-2' },
      }),
    ]);
  });

  it('sends the old slug when untrashing even where the site kept it', () => {
    const trashed = post(2, { status: 'trash' });
    const [action] = plan({
      wanted: [{ type: 'posts', id: 2, json: post(2) }],
      site: site(['posts', trashed]),
    }).actions;
    expect(action).toMatchObject({ kind: 'untrash', body: { status: 'publish', slug: 'post-2' } });
  });

  it('creates an item deleted for good again, its slug, status, dates and text', () => {
    const [action] = plan({
      wanted: [{ type: 'posts', id: 3, json: post(3, { status: 'draft' }) }],
    }).actions;
    expect(action).toMatchObject({
      kind: 'recreate',
      oldId: 3,
      body: {
        title: 'Post 3',
        content: '<p>Text of 3</p>',
        slug: 'post-3',
        status: 'draft',
        date_gmt: '2026-01-01T10:00:00',
      },
      refs: [],
    });
  });

  it('creates no trashed item again', () => {
    const result = plan({ wanted: [{ type: 'posts', id: 3, json: post(3, { status: 'trash' }) }] });
    expect(result.actions).toEqual([]);
    expect(result.notes).toEqual(['posts/3: was trash; not created again']);
  });

  it('finds an item created again by an earlier run under its new id, and leaves it when as wanted', () => {
    const copy = post(30, { id: 30 });
    const wantedJson = post(3);
    const result = plan({
      wanted: [{ type: 'posts', id: 3, json: wantedJson }],
      site: site([
        'posts',
        { ...copy, slug: 'post-3', title: wantedJson['title'], content: wantedJson['content'] },
      ]),
      mapped: new Map([['posts/3', 30]]),
    });
    expect(result.actions).toEqual([]);
    expect(result.unchanged).toEqual(['posts/3']);
  });

  it('creates again a file deleted with its post first, and points the post at it by reference', () => {
    const result = plan({
      wanted: [
        { type: 'posts', id: 4, json: post(4, { featured_media: 9 }) },
        { type: 'media', id: 9, json: image(9), ifGone: true },
      ],
    });
    expect(result.actions.map((a) => `${a.kind} ${a.type}/${'oldId' in a ? a.oldId : ''}`)).toEqual(
      ['recreate media/9', 'recreate posts/4'],
    );
    expect(result.actions[1]).toMatchObject({
      refs: [{ field: 'featured_media', type: 'media', oldId: 9 }],
    });
  });

  it('leaves a needed file that still exists alone, and keeps its id', () => {
    const result = plan({
      wanted: [
        { type: 'posts', id: 4, json: post(4, { featured_media: 9 }) },
        { type: 'media', id: 9, json: image(9), ifGone: true },
      ],
      site: site(['media', image(9)]),
    });
    expect(result.actions).toEqual([
      expect.objectContaining({ kind: 'recreate', oldId: 4, refs: [] }),
    ]);
    expect((result.actions[0] as { body: Json }).body['featured_media']).toBe(9);
  });

  it('moves the children of a page created again to it, and only then', () => {
    const wanted: WantedItem[] = [
      { type: 'pages', id: 5, json: page(5, 0) },
      { type: 'pages', id: 6, json: { parent: 5 }, fields: ['parent'], ifRecreated: 'pages/5' },
    ];
    const gone = plan({ wanted, site: site(['pages', page(6, 0)]) });
    expect(gone.actions.map((a) => a.kind)).toEqual(['recreate', 'update']);
    expect(gone.actions[1]).toMatchObject({
      id: 6,
      refs: [{ field: 'parent', type: 'pages', oldId: 5 }],
    });
    const there = plan({ wanted, site: site(['pages', page(5, 0)], ['pages', page(6, 3)]) });
    expect(there.actions).toEqual([]);
  });

  it('puts an item whose wanted state is the trash back in the trash', () => {
    const [action] = plan({
      wanted: [{ type: 'posts', id: 7, json: post(7, { status: 'trash' }) }],
      site: site(['posts', post(7)]),
    }).actions;
    expect(action).toMatchObject({ kind: 'trash', id: 7, why: 'wanted' });
  });

  it('lists items created since; trashes posts with removeNew, never files', () => {
    const created = [
      { type: 'posts' as const, id: 40, title: 'New post' },
      { type: 'media' as const, id: 41, title: 'New image' },
    ];
    const now = site(['posts', post(40)], ['media', image(41)]);
    const listed = plan({ wanted: [], site: now, created });
    expect(listed.actions).toEqual([]);
    expect(listed.leftNew).toEqual(created);
    const removed = plan({ wanted: [], site: now, created, removeNew: true });
    expect(removed.actions).toEqual([
      expect.objectContaining({ kind: 'trash', id: 40, why: 'new' }),
    ]);
    expect(removed.leftNew).toEqual([created[1]]);
  });

  it('restores only the fields asked for (a revision: the text)', () => {
    const now = post(8, { title: { raw: 'Edited', rendered: 'Edited' }, slug: 'edited' });
    const [action] = plan({
      wanted: [{ type: 'posts', id: 8, json: post(8), fields: ['title', 'content', 'excerpt'] }],
      site: site(['posts', now]),
    }).actions;
    expect(action).toMatchObject({ kind: 'update', body: { title: 'Post 8' } });
    expect((action as { body: Json }).body).not.toHaveProperty('slug');
  });

  it('compares text with links to items created again moved', () => {
    const links: LinkMap = {
      ids: new Map([[3, 30]]),
      fileIds: new Map(),
      urls: new Map([['http://site/pl/post-3/', 'http://site/pl/post-3-2/']]),
    };
    const wantedJson = post(1, {
      content: { raw: '<a href="http://site/pl/post-3/">x</a> <a href="/pl/?p=3">y</a>' },
    });
    const onSite = post(1, {
      content: { raw: '<a href="http://site/pl/post-3-2/">x</a> <a href="/pl/?p=30">y</a>' },
    });
    const result = plan({
      wanted: [{ type: 'posts', id: 1, json: wantedJson }],
      site: site(['posts', onSite]),
      links,
    });
    expect(result.actions).toEqual([]);
  });
});

describe('relinkText', () => {
  const links: LinkMap = {
    ids: new Map([[3, 30]]),
    fileIds: new Map([[9, 90]]),
    urls: new Map([
      ['http://site/pl/parent/', 'http://site/pl/parent-2/'],
      ['http://site/pl/cms-content/uploads/a.png', 'http://site/pl/cms-content/uploads/b.png'],
    ]),
  };

  it('moves exact links, short links, file URLs and media ids', () => {
    const text =
      '<a href="http://site/pl/parent/">p</a> <a href="http://site/pl/?p=3">s</a> ' +
      '<!-- cms:image {"id":9} --><img src="http://site/pl/cms-content/uploads/a.png" class="cms-image-9"/>';
    expect(relinkText(text, links)).toBe(
      '<a href="http://site/pl/parent-2/">p</a> <a href="http://site/pl/?p=30">s</a> ' +
        '<!-- cms:image {"id":90} --><img src="http://site/pl/cms-content/uploads/b.png" class="cms-image-90"/>',
    );
  });

  it('leaves a longer URL that starts with an old one, and other ids, alone', () => {
    const text = '<a href="http://site/pl/parent/child/">c</a> <a href="/?p=31">x</a> cms-image-91';
    expect(relinkText(text, links)).toBe(text);
  });
});
