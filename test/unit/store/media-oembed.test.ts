import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../src/errors.js';

import { useClockedStore } from '../../helpers/store/clocked-store.js';

const cache = useClockedStore();

const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

describe('media blobs', () => {
  it('stores the same bytes once, whatever URLs point at them', () => {
    const image = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 255]);
    const first = cache.store.media.putBlob(image);
    expect(first).toEqual({ sha256: sha(image), bytes: image.length, inserted: true });
    // Same content from another buffer (a subarray view, to check offsets are honoured).
    const again = cache.store.media.putBlob(Buffer.concat([Buffer.from('xx'), image]).subarray(2));
    expect(again).toEqual({ sha256: sha(image), bytes: image.length, inserted: false });

    cache.store.media.setFile({
      url: 'http://127.0.0.1/a.png',
      sha256: first.sha256,
      mimeType: 'image/png',
      lang: 'pl',
      mediaId: 5,
    });
    cache.store.media.setFile({
      url: 'http://127.0.0.1/a-300x200.png',
      sha256: first.sha256,
      lang: 'pl',
      mediaId: 5,
    });
    cache.store.media.setFile({
      url: 'http://127.0.0.1/es/a.png',
      sha256: first.sha256,
      lang: 'es',
    });

    expect(cache.store.media.blobStats()).toEqual({ count: 1, bytes: image.length });
    expect(cache.store.media.getBlob(first.sha256)?.equals(image)).toBe(true);
    expect(cache.store.media.hasBlob(first.sha256)).toBe(true);
    expect(cache.store.media.hasBlob(sha(Buffer.from('other')))).toBe(false);
    expect(cache.store.media.getFile('http://127.0.0.1/a.png')).toEqual({
      url: 'http://127.0.0.1/a.png',
      sha256: first.sha256,
      bytes: image.length,
      mimeType: 'image/png',
      etag: null,
      fetchedAt: '2024-05-01T10:00:00.000Z',
      lang: 'pl',
      mediaId: 5,
    });
    expect(cache.store.media.listFiles({ lang: 'pl', mediaId: 5 }).map((file) => file.url)).toEqual(
      ['http://127.0.0.1/a-300x200.png', 'http://127.0.0.1/a.png'],
    );
  });

  it('refuses bytes that do not match the expected sha256', () => {
    const data = Buffer.from('truncated download');
    const error = (() => {
      try {
        cache.store.media.putBlob(data, sha(Buffer.from('the full download')));
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(StoreError);
    expect(cache.store.media.blobStats().count).toBe(0);
    expect(cache.store.media.putBlob(data, sha(data).toUpperCase()).inserted).toBe(true);
  });

  it('refuses to map a URL to a blob that is not stored', () => {
    expect(() =>
      cache.store.media.setFile({ url: 'http://127.0.0.1/x.png', sha256: sha(Buffer.from('x')) }),
    ).toThrow(/not stored/);
    expect(cache.store.media.getFile('http://127.0.0.1/x.png')).toBeUndefined();
  });

  it('remaps a URL to new content and deletes blobs nothing points at', () => {
    const v1 = cache.store.media.putBlob(Buffer.from('version 1'));
    const v2 = cache.store.media.putBlob(Buffer.from('version 2'));
    cache.store.media.setFile({ url: 'http://127.0.0.1/f.pdf', sha256: v1.sha256, etag: '"1"' });
    cache.store.media.setFile({ url: 'http://127.0.0.1/f.pdf', sha256: v2.sha256, etag: '"2"' });
    expect(cache.store.media.getFile('http://127.0.0.1/f.pdf')).toMatchObject({
      sha256: v2.sha256,
      etag: '"2"',
      bytes: 9,
    });
    expect(cache.store.media.deleteOrphanBlobs()).toBe(1);
    expect(cache.store.media.hasBlob(v1.sha256)).toBe(false);
    expect(cache.store.media.hasBlob(v2.sha256)).toBe(true);
  });
});

describe('oEmbed cache', () => {
  const url = 'https://video.example/watch?v=1';

  it('returns an answer until it expires, then nothing (or the stale one when asked)', () => {
    cache.store.oembed.put(url, 600, { type: 'video', html: '<iframe></iframe>' }, 3600);
    expect(cache.store.oembed.get(url, 600)).toMatchObject({
      response: { type: 'video', html: '<iframe></iframe>' },
      fetchedAt: '2024-05-01T10:00:00.000Z',
      expiresAt: '2024-05-01T11:00:00.000Z',
      expired: false,
    });
    expect(cache.store.oembed.get(url, 400)).toBeUndefined();

    cache.clock = new Date('2024-05-01T10:59:59.999Z');
    expect(cache.store.oembed.get(url, 600)?.expired).toBe(false);
    cache.clock = new Date('2024-05-01T11:00:00.000Z');
    expect(cache.store.oembed.get(url, 600)).toBeUndefined();
    expect(cache.store.oembed.get(url, 600, { includeExpired: true })).toMatchObject({
      expired: true,
    });

    expect(cache.store.oembed.deleteExpired()).toBe(1);
    expect(cache.store.oembed.get(url, 600, { includeExpired: true })).toBeUndefined();
  });

  it('caches an unresolved URL as null, and an entry without expiry forever', () => {
    cache.store.oembed.put(url, 600, null, 60);
    expect(cache.store.oembed.get(url, 600)).toMatchObject({ response: null, expired: false });
    cache.store.oembed.put('http://127.0.0.1/pl/post-1/', 600, { type: 'rich' }, null);
    cache.clock = new Date('2099-01-01T00:00:00.000Z');
    expect(cache.store.oembed.get('http://127.0.0.1/pl/post-1/', 600)).toMatchObject({
      expiresAt: null,
      expired: false,
    });
    expect(cache.store.oembed.get(url, 600)).toBeUndefined();
  });

  it('rejects a negative or non-finite ttl', () => {
    expect(() => cache.store.oembed.put(url, 600, null, -1)).toThrow(RangeError);
    expect(() => cache.store.oembed.put(url, 600, null, Number.NaN)).toThrow(RangeError);
  });
});
