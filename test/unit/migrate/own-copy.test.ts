import { describe, expect, it } from 'vitest';
import { isOwnCopy, masked } from '../../../src/migrate/own-copy.js';
import { droppedTermWarnings } from '../../../src/migrate/terms.js';

const source = {
  id: 38,
  slug: 'historia',
  date_gmt: '2024-03-01T10:00:00',
  title: { raw: 'Historia', rendered: 'Historia' },
  content: {
    raw: '<!-- cms:image {"id":12} --><img class="cms-image-12" src="http://old/pl/wp/a.png"/><!-- /cms:image --><p>Od 1990 roku. <a href="http://old/pl/o-nas/">O nas</a> <a href="/?p=38">tu</a></p>',
  },
  excerpt: { raw: '' },
};

describe('isOwnCopy', () => {
  it('recognises the copy a migration made: URLs and ids rewritten, text the same', () => {
    const copy = {
      id: 141,
      slug: 'historia-2',
      date_gmt: '2024-03-01T10:00:00',
      title: { raw: 'Historia' },
      content: {
        raw: '<!-- cms:image {"id":77} --><img class="cms-image-77" src="http://new/pl/wp/a.png"/><!-- /cms:image --><p>Od 1990 roku. <a href="http://new/pl/o-nas/">O nas</a> <a href="/?p=141">tu</a></p>',
      },
      excerpt: { raw: '' },
    };
    expect(isOwnCopy('pages', source, copy)).toBe(true);
  });

  it("does not take a person's item with the same slug and date", () => {
    const person = {
      ...source,
      id: 5,
      title: { raw: 'Historia' },
      content: { raw: '<p>Nasza historia, napisana tutaj.</p>' },
    };
    expect(isOwnCopy('pages', source, person)).toBe(false);
    // Same text, another title or date: not the copy either.
    expect(isOwnCopy('pages', source, { ...source, title: { raw: 'Historia firmy' } })).toBe(false);
    expect(isOwnCopy('pages', source, { ...source, date_gmt: '2024-03-01T10:00:01' })).toBe(false);
    expect(isOwnCopy('pages', source, { ...source, excerpt: { raw: 'Added by someone.' } })).toBe(
      false,
    );
  });

  it('media: title, caption, description, alt text and type', () => {
    const media = {
      date_gmt: '2024-01-01T00:00:00',
      title: { raw: 'Logo' },
      caption: { raw: '<p>Logo <a href="http://old/pl/">site</a></p>' },
      description: { raw: '' },
      alt_text: 'logo',
      mime_type: 'image/png',
    };
    const copy = { ...media, caption: { raw: '<p>Logo <a href="http://new/pl/">site</a></p>' } };
    expect(isOwnCopy('media', media, copy)).toBe(true);
    expect(isOwnCopy('media', media, { ...copy, alt_text: 'another' })).toBe(false);
  });

  it('masks URLs, link attributes and digits only', () => {
    expect(masked('<a href="/x/1">a 2</a> https://h/p\\/q b')).toBe('<a href="#">a 0</a> # b');
  });
});

describe('droppedTermWarnings', () => {
  const items = [
    { type: 'posts' as const, id: 1, json: { categories: [3, 2], tags: [10] } },
    { type: 'posts' as const, id: 2, json: { categories: [2], tags: [] } },
    { type: 'pages' as const, id: 3, json: {} },
  ];
  it('says once per collection which ids were left out', () => {
    expect(droppedTermWarnings(items, false)).toEqual([
      'posts: category ids 2, 3 (on 2 item(s)); tag ids 10 (on 1 item(s)) not migrated: term ids mean nothing on another site and the interface has no routes for terms (the target gives its default category); --keep-terms sends them as they are to a target that shares them',
    ]);
  });
  it('says nothing when the terms are kept', () => {
    expect(droppedTermWarnings(items, true)).toEqual([]);
  });
});
