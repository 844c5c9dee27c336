import { describe, expect, it } from 'vitest';
import {
  onSiteScheme,
  declaredFileSize,
  isPublicItem,
  mayHaveEmbeds,
  mediaItemUrls,
} from '../../../src/sync/content-media.js';
import { contentMediaUrls } from '../../../src/sync/content-media-urls.js';

const BASE = 'https://site.test/pl/2024/05/post/';

describe('contentMediaUrls', () => {
  it('finds img src and srcset, source, video and audio files, and links into the uploads', () => {
    const html = `
      <figure><img src="https://site.test/pl/cms-content/uploads/2024/05/a.png"
        srcset="https://site.test/pl/cms-content/uploads/2024/05/a.png 800w, /pl/cms-content/uploads/2024/05/a-300x200.png 300w"></figure>
      <picture><source srcset="b.webp 1x, b@2x.webp 2x"><img src="b.png"></picture>
      <video src="https://site.test/v.mp4" poster="https://site.test/poster.jpg"></video>
      <audio src="https://site.test/a.mp3"></audio>
      <p><a href="https://site.test/pl/cms-content/uploads/2024/05/doc.pdf">PDF</a>
         <a href="https://site.test/pl/o-nas/">page link, not a file</a>
         <a href="mailto:x@site.test">mail</a></p>
      <img src="data:image/png;base64,AAAA">`;
    expect(contentMediaUrls(html, BASE)).toEqual([
      'https://site.test/pl/cms-content/uploads/2024/05/a.png',
      'https://site.test/pl/cms-content/uploads/2024/05/a-300x200.png',
      'https://site.test/pl/2024/05/post/b.webp',
      'https://site.test/pl/2024/05/post/b@2x.webp',
      'https://site.test/pl/2024/05/post/b.png',
      'https://site.test/v.mp4',
      'https://site.test/poster.jpg',
      'https://site.test/a.mp3',
      'https://site.test/pl/cms-content/uploads/2024/05/doc.pdf',
    ]);
  });

  it('finds nothing in text-only content (without parsing it)', () => {
    expect(contentMediaUrls('<p>Hello <a href="/x/">x</a></p>', BASE)).toEqual([]);
  });
});

describe('mediaItemUrls', () => {
  it('lists the original and every size, once each', () => {
    const item = {
      source_url: 'https://site.test/pl/cms-content/uploads/a.png',
      media_details: {
        filesize: 1234,
        sizes: {
          medium: { source_url: 'https://site.test/pl/cms-content/uploads/a-300x200.png' },
          full: { source_url: 'https://site.test/pl/cms-content/uploads/a.png' },
          broken: { file: 'x.png' },
        },
      },
    };
    expect(mediaItemUrls(item)).toEqual([
      'https://site.test/pl/cms-content/uploads/a.png',
      'https://site.test/pl/cms-content/uploads/a-300x200.png',
    ]);
    expect(declaredFileSize(item)).toBe(1234);
    expect(mediaItemUrls({ source_url: 'javascript:alert(1)' })).toEqual([]);
    expect(declaredFileSize({})).toBeUndefined();
  });
});

describe('isPublicItem and mayHaveEmbeds', () => {
  it('treats only published, unprotected content as public', () => {
    expect(isPublicItem({ status: 'publish', content: { protected: false } })).toBe(true);
    expect(isPublicItem({ status: 'publish', content: { protected: true } })).toBe(false);
    expect(isPublicItem({ status: 'draft', content: { protected: false } })).toBe(false);
  });

  it('spots content that may hold standalone URLs', () => {
    expect(mayHaveEmbeds('<p>https://video.test/watch?v=1</p>')).toBe(true);
    expect(mayHaveEmbeds('<p><a href="https://x.test/">https://x.test/</a></p>')).toBe(true);
    expect(mayHaveEmbeds('<figure class="cms-block-embed"><div>…</div></figure>')).toBe(true);
    expect(mayHaveEmbeds('<p>See https://x.test/ for more</p>')).toBe(false);
  });
});

describe('onSiteScheme', () => {
  it('fetches the other scheme of the site own host through the site scheme', () => {
    expect(onSiteScheme('http://example.com/up/a.png', 'https://example.com')).toBe(
      'https://example.com/up/a.png',
    );
    expect(onSiteScheme('https://127.0.0.1:8080/up/a.png', 'http://127.0.0.1:8080')).toBe(
      'http://127.0.0.1:8080/up/a.png',
    );
  });

  it('leaves other hosts, other ports and the site own scheme alone', () => {
    expect(onSiteScheme('http://cdn.example.com/a.png', 'https://example.com')).toBe(
      'http://cdn.example.com/a.png',
    );
    expect(onSiteScheme('http://example.com:8080/a.png', 'https://example.com')).toBe(
      'http://example.com:8080/a.png',
    );
    expect(onSiteScheme('https://example.com/a.png', 'https://example.com')).toBe(
      'https://example.com/a.png',
    );
  });
});
