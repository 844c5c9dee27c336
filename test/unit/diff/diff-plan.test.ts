import { describe, expect, it } from 'vitest';
import { changeOf, planDiff } from '../../../src/diff/index.js';

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
