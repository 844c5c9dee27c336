import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../../src/errors.js';
import type { Store } from '../../../src/store/index.js';
import { openStore } from '../../../src/store/index.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import { tempCache } from '../../helpers/temp-cache.js';

let temp: TempCache;
let store: Store;
let clock: Date;
beforeEach(() => {
  temp = tempCache();
  clock = new Date('2024-05-01T10:00:00.000Z');
  store = openStore(temp.file, { now: () => clock });
});
afterEach(() => {
  store.close();
  temp.cleanup();
});

const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

describe('media blobs', () => {
  it('stores the same bytes once, whatever URLs point at them', () => {
    const image = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 255]);
    const first = store.media.putBlob(image);
    expect(first).toEqual({ sha256: sha(image), bytes: image.length, inserted: true });
    // Same content from another buffer (a subarray view, to check offsets are honoured).
    const again = store.media.putBlob(Buffer.concat([Buffer.from('xx'), image]).subarray(2));
    expect(again).toEqual({ sha256: sha(image), bytes: image.length, inserted: false });

    store.media.setFile({
      url: 'http://127.0.0.1/a.png',
      sha256: first.sha256,
      mimeType: 'image/png',
      lang: 'pl',
      mediaId: 5,
    });
    store.media.setFile({
      url: 'http://127.0.0.1/a-300x200.png',
      sha256: first.sha256,
      lang: 'pl',
      mediaId: 5,
    });
    store.media.setFile({ url: 'http://127.0.0.1/es/a.png', sha256: first.sha256, lang: 'es' });

    expect(store.media.blobStats()).toEqual({ count: 1, bytes: image.length });
    expect(store.media.getBlob(first.sha256)?.equals(image)).toBe(true);
    expect(store.media.hasBlob(first.sha256)).toBe(true);
    expect(store.media.hasBlob(sha(Buffer.from('other')))).toBe(false);
    expect(store.media.getFile('http://127.0.0.1/a.png')).toEqual({
      url: 'http://127.0.0.1/a.png',
      sha256: first.sha256,
      bytes: image.length,
      mimeType: 'image/png',
      etag: null,
      fetchedAt: '2024-05-01T10:00:00.000Z',
      lang: 'pl',
      mediaId: 5,
    });
    expect(store.media.listFiles({ lang: 'pl', mediaId: 5 }).map((file) => file.url)).toEqual([
      'http://127.0.0.1/a-300x200.png',
      'http://127.0.0.1/a.png',
    ]);
  });

  it('refuses bytes that do not match the expected sha256', () => {
    const data = Buffer.from('truncated download');
    const error = (() => {
      try {
        store.media.putBlob(data, sha(Buffer.from('the full download')));
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(StoreError);
    expect(store.media.blobStats().count).toBe(0);
    expect(store.media.putBlob(data, sha(data).toUpperCase()).inserted).toBe(true);
  });

  it('refuses to map a URL to a blob that is not stored', () => {
    expect(() =>
      store.media.setFile({ url: 'http://127.0.0.1/x.png', sha256: sha(Buffer.from('x')) }),
    ).toThrow(/not stored/);
    expect(store.media.getFile('http://127.0.0.1/x.png')).toBeUndefined();
  });

  it('remaps a URL to new content and deletes blobs nothing points at', () => {
    const v1 = store.media.putBlob(Buffer.from('version 1'));
    const v2 = store.media.putBlob(Buffer.from('version 2'));
    store.media.setFile({ url: 'http://127.0.0.1/f.pdf', sha256: v1.sha256, etag: '"1"' });
    store.media.setFile({ url: 'http://127.0.0.1/f.pdf', sha256: v2.sha256, etag: '"2"' });
    expect(store.media.getFile('http://127.0.0.1/f.pdf')).toMatchObject({
      sha256: v2.sha256,
      etag: '"2"',
      bytes: 9,
    });
    expect(store.media.deleteOrphanBlobs()).toBe(1);
    expect(store.media.hasBlob(v1.sha256)).toBe(false);
    expect(store.media.hasBlob(v2.sha256)).toBe(true);
  });
});

describe('oEmbed cache', () => {
  const url = 'https://video.example/watch?v=1';

  it('returns an answer until it expires, then nothing (or the stale one when asked)', () => {
    store.oembed.put(url, 600, { type: 'video', html: '<iframe></iframe>' }, 3600);
    expect(store.oembed.get(url, 600)).toMatchObject({
      response: { type: 'video', html: '<iframe></iframe>' },
      fetchedAt: '2024-05-01T10:00:00.000Z',
      expiresAt: '2024-05-01T11:00:00.000Z',
      expired: false,
    });
    expect(store.oembed.get(url, 400)).toBeUndefined();

    clock = new Date('2024-05-01T10:59:59.999Z');
    expect(store.oembed.get(url, 600)?.expired).toBe(false);
    clock = new Date('2024-05-01T11:00:00.000Z');
    expect(store.oembed.get(url, 600)).toBeUndefined();
    expect(store.oembed.get(url, 600, { includeExpired: true })).toMatchObject({ expired: true });

    expect(store.oembed.deleteExpired()).toBe(1);
    expect(store.oembed.get(url, 600, { includeExpired: true })).toBeUndefined();
  });

  it('caches an unresolved URL as null, and an entry without expiry forever', () => {
    store.oembed.put(url, 600, null, 60);
    expect(store.oembed.get(url, 600)).toMatchObject({ response: null, expired: false });
    store.oembed.put('http://127.0.0.1/pl/post-1/', 600, { type: 'rich' }, null);
    clock = new Date('2099-01-01T00:00:00.000Z');
    expect(store.oembed.get('http://127.0.0.1/pl/post-1/', 600)).toMatchObject({
      expiresAt: null,
      expired: false,
    });
    expect(store.oembed.get(url, 600)).toBeUndefined();
  });

  it('rejects a negative or non-finite ttl', () => {
    expect(() => store.oembed.put(url, 600, null, -1)).toThrow(RangeError);
    expect(() => store.oembed.put(url, 600, null, Number.NaN)).toThrow(RangeError);
  });
});
