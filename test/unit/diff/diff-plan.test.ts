import { describe, expect, it } from 'vitest';
import { changeOf, formatDiff, planDiff } from '../../../src/diff/index.js';

type Json = Record<string, unknown>;

function post(id: number, fields: Json = {}): Json {
  return {
    id,
    status: 'publish',
    slug: `post-${id}`,
    title: { raw: `Post ${id}`, rendered: `Post ${id}` },
    excerpt: { raw: '', rendered: '' },
    content: { raw: 'one\ntwo\nthree', rendered: '<p>one two three</p>' },
    modified_gmt: '2026-01-01T00:00:00',
    ...fields,
  };
}

function state(json: Json, type: 'posts' | 'pages' | 'media' = 'posts') {
  return {
    type,
    id: json['id'] as number,
    status: typeof json['status'] === 'string' ? json['status'] : null,
    contentHash: undefined,
    json,
  };
}

function pair(
  before: Json | undefined,
  after: Json | undefined,
  type: 'posts' | 'media' = 'posts',
) {
  const id = ((before ?? after) as Json)['id'] as number;
  return {
    type,
    id,
    before: before === undefined ? undefined : state(before, type),
    after: after === undefined ? undefined : state(after, type),
  };
}

describe('changeOf', () => {
  it('tells created, deleted, trashed, unpublished and updated apart; media are added or removed', () => {
    expect(changeOf(pair(undefined, post(1)))?.kind).toBe('created');
    expect(changeOf(pair(post(1), undefined))?.kind).toBe('deleted');
    expect(
      changeOf(pair(post(1), post(1, { status: 'trash', slug: 'post-1__trashed' })))?.kind,
    ).toBe('trashed');
    for (const status of ['draft', 'pending', 'private']) {
      expect(changeOf(pair(post(1), post(1, { status })))?.kind).toBe('unpublished');
    }
    // Out of the trash, or a draft published: an update of its status.
    expect(changeOf(pair(post(1, { status: 'trash' }), post(1)))?.kind).toBe('updated');
    expect(changeOf(pair(post(1, { status: 'draft' }), post(1)))?.kind).toBe('updated');
    // Deleted from the trash: deleted.
    expect(changeOf(pair(post(1, { status: 'trash' }), undefined))?.kind).toBe('deleted');
    expect(changeOf(pair(undefined, { id: 9, status: 'inherit' }, 'media'))?.kind).toBe(
      'media-added',
    );
    expect(changeOf(pair({ id: 9, status: 'inherit' }, undefined, 'media'))?.kind).toBe(
      'media-removed',
    );
  });

  it('gives nothing for the same content, whatever the key order', () => {
    const a = post(1);
    const b = Object.fromEntries(Object.entries(post(1)).reverse());
    expect(changeOf(pair(a, b))).toBeUndefined();
  });

  it('an update: a line diff of the changed text fields and the other changed fields, without modified', () => {
    const change = changeOf(
      pair(
        post(1),
        post(1, {
          content: { raw: 'one\n2\nthree', rendered: '<p>one 2 three</p>' },
          slug: 'renamed',
          featured_media: 5,
          modified_gmt: '2026-02-02T00:00:00',
        }),
      ),
    );
    expect(change?.kind).toBe('updated');
    expect(change?.fields).toEqual(['featured_media', 'slug']);
    expect(change?.text).toEqual([
      {
        field: 'content',
        lines: [
          { op: ' ', text: 'one' },
          { op: '-', text: 'two' },
          { op: '+', text: '2' },
          { op: ' ', text: 'three' },
        ],
      },
    ]);
  });
});

describe('planDiff', () => {
  it('puts losses first, then by type and id, and leaves unchanged pairs out', () => {
    const changes = planDiff([
      pair(undefined, post(5)),
      pair(post(3), post(3, { title: { raw: 'New' } })),
      pair(post(2), post(2)),
      pair(post(4), undefined),
      pair(post(1), post(1, { status: 'trash' })),
    ]);
    expect(changes.map((c) => `${c.kind} ${c.id}`)).toEqual([
      'deleted 4',
      'trashed 1',
      'updated 3',
      'created 5',
    ]);
  });
});

describe('a deleted item and its featured media', () => {
  const image = (id: number) => ({ id, status: 'inherit', title: { raw: `Image ${id}` } });
  const changes = planDiff([
    pair(post(1, { featured_media: 9 }), undefined),
    pair(image(9), undefined, 'media'),
    pair(image(10), undefined, 'media'),
    pair(post(2, { featured_media: 11 }), post(2, { featured_media: 11, status: 'trash' })),
    pair(image(11), undefined, 'media'),
    pair(post(3, { featured_media: 12 }), undefined),
  ]);

  it('are one deletion that names the media; media removed on their own keep their own change', () => {
    expect(changes.map((c) => `${c.kind} ${c.type}/${c.id}`)).toEqual([
      'deleted posts/1',
      'deleted posts/3',
      'media-removed media/10',
      'media-removed media/11',
      'trashed posts/2',
    ]);
    expect(changes[0]!.removedMedia).toEqual([{ type: 'media', id: 9, title: 'Image 9' }]);
    // Its featured media is still there: nothing to fold.
    expect(changes[1]!.removedMedia).toEqual([]);
    for (const change of changes.slice(2)) expect(change.removedMedia).toEqual([]);
  });

  it('prints the deletion as one line naming its featured image', () => {
    const counts = { deleted: 2, 'media-removed': 2, trashed: 1 } as Record<string, number>;
    const lines = formatDiff({
      against: 'snapshot',
      with: 'before.sqlite',
      languages: { pl: changes },
      counts: counts as never,
      total: changes.length,
    });
    const deletion = lines.filter((line) => line.includes('posts/1 '));
    expect(deletion).toEqual([
      '  deleted       posts/1 "Post 1", with its featured image media/9 "Image 9"',
    ]);
    expect(lines.some((line) => line.includes('media/9 ') && line.includes('media removed'))).toBe(
      false,
    );
  });
});
