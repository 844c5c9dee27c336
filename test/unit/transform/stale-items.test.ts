import { describe, expect, it } from 'vitest';
import { runTransform } from '../../../src/transform/transform-runner.js';
import { runOnAnotherConnection } from '../../helpers/store/another-connection.js';
import { post } from '../../helpers/store/item-fixtures.js';
import { useTempStore } from '../../helpers/store/temp-store.js';

const home = 'http://host/pl/';
const cache = useTempStore();

/** A post of `home` whose body is `content` (`item-fixtures.ts`' post otherwise). */
const postWith = (id: number, content: string, extra: Record<string, unknown> = {}) =>
  post(id, {
    slug: `p${id}`,
    link: `${home}p${id}/`,
    content: { rendered: content, protected: false },
    ...extra,
  });

/** SQL on the cache file through a connection of its own, as another process would write. */
const sql = (statement: string, ...params: unknown[]): void =>
  runOnAnotherConnection(cache.temp.file, statement, ...params);

/** Posts transformed by one run, and each post's stored HTML after it. */
function transform(sanitize = true): { transformed: number; html: Record<number, string> } {
  const { transformed } = runTransform(cache.store, { lang: 'pl', homeUrl: home, sanitize });
  const html: Record<number, string> = {};
  for (const id of [1, 2, 3]) {
    const row = cache.store.transformed.get('pl', 'posts', id);
    if (row !== undefined) html[id] = row.html;
  }
  return { transformed, html };
}

function threePosts(): void {
  cache.store.items.upsertPage('pl', 'posts', [
    postWith(1, '<p>one</p>'),
    postWith(2, '<p>two</p>'),
    postWith(3, '<p>three</p>', { status: 'draft' }),
  ]);
  expect(transform().transformed).toBe(2);
}

describe('runTransform, from the items changed since its last complete pass', () => {
  it('transforms an edited post, then nothing', () => {
    threePosts();
    cache.store.items.upsertPage('pl', 'posts', [postWith(2, '<p>two, edited</p>')]);
    expect(transform()).toEqual({
      transformed: 1,
      html: { 1: '<p>one</p>', 2: '<p>two, edited</p>' },
    });
    expect(transform().transformed).toBe(0);
  });

  it('transforms a draft once published, whatever column made it public', () => {
    threePosts();
    // Skipped while a draft, though stale: its later publishing must still be seen.
    expect(transform().transformed).toBe(0);
    sql("UPDATE items SET status = 'publish' WHERE type = 'posts' AND id = 3");
    expect(transform()).toEqual({
      transformed: 1,
      html: { 1: '<p>one</p>', 2: '<p>two</p>', 3: '<p>three</p>' },
    });
  });

  it('transforms again a post whose output was deleted, or that came back from a tombstone', () => {
    threePosts();
    sql("DELETE FROM transformed WHERE type = 'posts' AND id = 1");
    expect(transform()).toMatchObject({ transformed: 1, html: { 1: '<p>one</p>' } });
    cache.store.items.tombstone('pl', 'posts', [2]);
    cache.store.transformed.deleteForDeletedItems('pl');
    expect(transform().transformed).toBe(0);
    cache.store.items.upsertPage('pl', 'posts', [postWith(2, '<p>two</p>')]);
    expect(transform()).toMatchObject({ transformed: 1, html: { 2: '<p>two</p>' } });
  });

  it('reads every item under another transform key, and again when the key comes back', () => {
    threePosts();
    expect(transform(false).transformed).toBe(2);
    expect(transform(false).transformed).toBe(0);
    expect(transform(true).transformed).toBe(2);
  });

  it('reads every item once on a cache whose changes were not logged (made before the log)', () => {
    threePosts();
    sql('DELETE FROM transform_logging');
    sql(
      "UPDATE items SET content_hash = 'changed', json = json_set(json, '$.content.rendered', '<p>one, unlogged</p>') WHERE type = 'posts' AND id = 1",
    );
    expect(transform()).toMatchObject({ transformed: 1, html: { 1: '<p>one, unlogged</p>' } });
    // Logged from that pass on.
    sql(
      "UPDATE items SET content_hash = 'again', json = json_set(json, '$.content.rendered', '<p>one, logged</p>') WHERE type = 'posts' AND id = 1",
    );
    expect(transform()).toMatchObject({ transformed: 1, html: { 1: '<p>one, logged</p>' } });
  });
});

describe('TransformedRepo change log', () => {
  it('forgets only the changes read before the pass ended: one made during it is read next', () => {
    threePosts();
    cache.store.items.upsertPage('pl', 'posts', [postWith(1, '<p>one, edited</p>')]);
    const key = cache.store.transformed.get('pl', 'posts', 2)!.transformVersion;
    const logged = cache.store.transformed.loggedChanges('pl', key)!;
    const stale = () =>
      [...cache.store.transformed.iterateStaleLogged('pl', key, logged.upTo)].map(
        (item) => `${item.type}/${item.id}`,
      );
    expect(stale()).toEqual(['posts/1']);
    const one = cache.store.items.get('pl', 'posts', 1)!;
    cache.store.transformed.put({
      lang: 'pl',
      type: 'posts',
      id: 1,
      transformVersion: key,
      sourceHash: one.contentHash,
      html: '<p>one, edited</p>',
    });
    // Made after the log was read, while the pass runs.
    cache.store.items.upsertPage('pl', 'posts', [postWith(2, '<p>two, edited</p>')]);
    cache.store.transformed.finishLoggedPass('pl', key, logged.upTo);
    const next = cache.store.transformed.loggedChanges('pl', key)!;
    expect(
      [...cache.store.transformed.iterateStaleLogged('pl', key, next.upTo)].map(
        (item) => `${item.type}/${item.id}`,
      ),
    ).toEqual(['posts/2']);
    expect(cache.store.transformed.loggedChanges('pl', 'another key')).toBeUndefined();
  });
});
