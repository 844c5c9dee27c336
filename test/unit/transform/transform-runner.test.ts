import { describe, expect, it } from 'vitest';
import { runTransform } from '../../../src/transform/transform-runner.js';
import { mediaSitePath } from '../../../src/transform/media-site-paths.js';
import { useTempStore } from '../../helpers/store/temp-store.js';

const home = 'http://host/pl/';
const cache = useTempStore();

function post(id: number, content: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    status: 'publish',
    slug: `p${id}`,
    link: `http://host/pl/2024/03/p${id}/`,
    modified_gmt: '2024-03-01T10:00:00',
    title: { rendered: `Post ${id}` },
    content: { rendered: content, protected: false },
    excerpt: { rendered: `<p>Excerpt <b>${id}</b> &amp; more</p>`, protected: false },
    ...extra,
  };
}

describe('runTransform', () => {
  it('rewrites links and media from the cache, skips non-public items, and never redoes unchanged ones', () => {
    const image = 'http://host/pl/cms-content/uploads/2024/03/a.png';
    const blob = cache.store.media.putBlob(Buffer.from('png bytes'));
    cache.store.media.setFile({ url: image, sha256: blob.sha256, lang: 'pl' });
    cache.store.items.upsertPage('pl', 'posts', [
      post(
        1,
        `<h2>Hi</h2><p><a href="http://host/pl/2024/03/p2/">two</a> <img src="${image}"></p>`,
      ),
      post(2, '<p>two</p>'),
      post(3, '<p>secret draft</p>', { status: 'draft' }),
      post(4, '<p>locked</p>', { content: { rendered: '', protected: true } }),
    ]);

    expect(runTransform(cache.store, { lang: 'pl', homeUrl: home }).transformed).toBe(2);
    const one = cache.store.transformed.get('pl', 'posts', 1);
    expect(one?.html).toContain('href="../p2/"');
    expect(one?.html).toContain(`src="../../..${mediaSitePath(image, blob.sha256)}"`);
    expect(one?.html).toContain('<h2 id="hi">');
    expect(one?.excerpt).toBe('Excerpt 1 & more');
    expect(cache.store.transformed.get('pl', 'posts', 3)).toBeUndefined();
    expect(cache.store.transformed.get('pl', 'posts', 4)).toBeUndefined();

    expect(runTransform(cache.store, { lang: 'pl', homeUrl: home }).transformed).toBe(0);
    cache.store.items.upsertPage('pl', 'posts', [post(2, '<p>two, edited</p>')]);
    expect(runTransform(cache.store, { lang: 'pl', homeUrl: home }).transformed).toBe(1);
  });

  it('uses cached embeds offline and falls back to a link card', () => {
    cache.store.oembed.put(
      'https://www.youtube.com/watch?v=abc',
      600,
      {
        type: 'video',
        html: '<iframe src="https://www.youtube.com/embed/abc"></iframe>',
        title: 'A video',
      },
      3600,
    );
    cache.store.items.upsertPage('pl', 'posts', [
      post(1, '<p>https://www.youtube.com/watch?v=abc</p><p>https://unknown.example/thing</p>'),
    ]);
    runTransform(cache.store, { lang: 'pl', homeUrl: home });
    const html = cache.store.transformed.get('pl', 'posts', 1)?.html ?? '';
    expect(html).toContain('<iframe src="https://www.youtube.com/embed/abc"');
    expect(html).toContain('embed-card');
    expect(html).toContain('https://unknown.example/thing');
  });
});
