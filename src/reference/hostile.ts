import { attachStripePng, publishedItem } from './small-items.js';
import type { LangStore, StoredItem } from './store.js';

/**
 * Hostile mode: published items whose slugs, links and file names try to escape a directory
 * or confuse path handling (`..`, absolute paths, encoded slashes, back-slashes, very long
 * names, control characters, non-Latin scripts) and whose HTML carries scripts and odd URLs.
 * The server returns them exactly as stored, like a compromised or careless server would.
 */
export const HOSTILE_SLUGS: readonly string[] = [
  '..',
  '../../etc/passwd',
  '/etc/passwd',
  '%2e%2e%2f%2e%2e%2fetc',
  'a%2Fb%2F..%2F..%2Fc',
  'back\\slash\\..\\..\\windows',
  `long-${'x'.repeat(320)}`,
  'tab\tand\u0007bell\u001b',
  'zażółć-gęślą-jaźń',
  'привет-мир',
  '中文标题',
  'مرحبا-بالعالم',
  'CON',
  '.hidden',
  'trailing-dot.',
];

export const HOSTILE_FILE_NAMES: readonly string[] = [
  '../../evil.png',
  '%2e%2e%2fencoded.png',
  'back\\slash.png',
  `${'long'.repeat(80)}.png`,
  'zdjęcie-żółw.png',
  'фото.png',
  '图片.png',
  'صورة.png',
  '/absolute.png',
];

const HOSTILE_HTML = [
  '<p><a href="../../../etc/passwd">up and out</a> <a href="javascript:alert(1)">js link</a></p>',
  '<script>alert("x")</script>',
  '<p><img src="file:///etc/passwd" alt="file url" onerror="alert(2)"></p>',
  '<iframe src="https://evil.invalid/frame"></iframe>',
  '<p><a href="/%2e%2e/%2e%2e/secret">encoded dots</a></p>',
].join('\n');

function hostileItem(id: number, type: StoredItem['type'], slug: string, date: number): StoredItem {
  return publishedItem(id, type, date, {
    slug,
    title: `<script>alert("title")</script>Hostile ${JSON.stringify(slug).slice(1, 40)}`,
    content: type === 'attachment' ? '' : HOSTILE_HTML,
  });
}

export function addHostileItems(store: LangStore, base: string): void {
  // Dated just before the seed epoch so they sort among the newest content.
  const date = Date.UTC(2025, 0, 10, 12, 0, 0) / 1000;
  const items: StoredItem[] = [];
  HOSTILE_SLUGS.forEach((slug, index) =>
    items.push(hostileItem(store.allocateId(), 'post', slug, date - index * 60)),
  );
  let parent = 0;
  for (const [index, slug] of ['..', '../..', '%2e%2e', 'ok-page'].entries()) {
    const page = hostileItem(store.allocateId(), 'page', slug, date - index * 60);
    page.parent = parent;
    parent = page.id;
    items.push(page);
  }
  HOSTILE_FILE_NAMES.forEach((name, index) => {
    const item = hostileItem(
      store.allocateId(),
      'attachment',
      name.replace(/\.png$/, ''),
      date - index * 60,
    );
    attachStripePng(store, base, item, {
      file: `2025/01/${name}`,
      lastModified: date,
      altText: name,
      background: [200, 0, 0],
      foreground: [0, 0, 0],
      stripe: 2,
    });
    items.push(item);
  });
  for (const item of items) store.add(item);
}
