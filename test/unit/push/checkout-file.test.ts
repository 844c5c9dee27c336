import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkoutPath,
  fieldsFromItem,
  fileSafeSlug,
  locateCheckoutFile,
  parseCheckout,
  serializeCheckout,
} from '../../../src/push/checkout-file.js';
import { InputError, UnsafePathError } from '../../../src/errors.js';

const editPost = {
  id: 12,
  slug: 'hello',
  status: 'publish',
  date: '2024-03-14T12:00:00',
  date_gmt: '2024-03-14T10:00:00',
  title: { raw: 'Hello: world', rendered: 'Hello: world' },
  content: { raw: '<p>Raw body</p>', rendered: '<p>Rendered body</p>', protected: false },
  excerpt: { raw: '', rendered: '<p>Raw body</p>' },
  author: 1,
  featured_media: 0,
  comment_status: 'open',
  ping_status: 'closed',
  sticky: false,
  format: 'standard',
  template: '',
  categories: [1],
  tags: [],
  parent: 99,
  link: 'http://x/pl/2024/03/hello/',
};

describe('fieldsFromItem', () => {
  it('takes raw values of an edit-context item and only the fields its type has', () => {
    expect(fieldsFromItem(editPost, 'posts')).toEqual({
      title: 'Hello: world',
      slug: 'hello',
      status: 'publish',
      excerpt: '',
      date_gmt: '2024-03-14T10:00:00',
      sticky: false,
      format: 'standard',
      comment_status: 'open',
      ping_status: 'closed',
      featured_media: 0,
      categories: [1],
      tags: [],
      template: '',
      author: 1,
      content: '<p>Raw body</p>',
    });
  });

  it('falls back to rendered values and to date when date_gmt is null', () => {
    const page = {
      id: 3,
      slug: 'about',
      status: 'draft',
      date: '2024-01-01T09:00:00',
      date_gmt: null,
      title: { rendered: 'About' },
      content: { rendered: '<p>R</p>' },
      parent: 2,
      menu_order: 4,
      sticky: true,
    };
    expect(fieldsFromItem(page, 'pages')).toEqual({
      title: 'About',
      slug: 'about',
      status: 'draft',
      date: '2024-01-01T09:00:00',
      parent: 2,
      menu_order: 4,
      content: '<p>R</p>',
    });
  });
});

describe('serializeCheckout / parseCheckout', () => {
  it('writes the exact file text and reads it back to the same document', () => {
    const doc = {
      id: 12,
      type: 'posts' as const,
      lang: 'pl',
      fields: {
        title: 'Hello: world',
        slug: 'hello',
        status: 'publish',
        categories: [1, 2],
        content: '<p>a</p>\n',
      },
    };
    const text = serializeCheckout(doc);
    expect(text).toBe(
      '---\nid: 12\ntype: posts\nlang: pl\ntitle: "Hello: world"\nslug: hello\nstatus: publish\ncategories:\n  - 1\n  - 2\n---\n<p>a</p>\n\n',
    );
    expect(parseCheckout(text, 'f.html')).toEqual(doc);
  });

  it('round-trips a real item, including YAML-looking strings and an empty body', () => {
    const fields = { ...fieldsFromItem(editPost, 'posts'), title: 'yes', slug: '123', content: '' };
    const doc = { id: 12, type: 'posts' as const, lang: 'es', fields };
    expect(parseCheckout(serializeCheckout(doc), 'f.html')).toEqual(doc);
  });

  it('accepts CRLF files and a new file without id, taking type and lang from its place', () => {
    const text = '---\r\ntitle: New one\r\nstatus: draft\r\n---\r\n<p>x</p>\r\n';
    expect(parseCheckout(text, 'new.html', { type: 'pages', lang: 'es' })).toEqual({
      id: undefined,
      type: 'pages',
      lang: 'es',
      fields: { title: 'New one', status: 'draft', content: '<p>x</p>' },
    });
  });

  it('names the file and the line of a YAML syntax error', () => {
    const text = '---\nid: 1\ntype: posts\nlang: pl\ntitle: [unclosed\n---\nbody\n';
    try {
      parseCheckout(text, 'content/pl/posts/1-a.html');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).code).toBe('E_INPUT');
      expect((error as InputError).file).toBe('content/pl/posts/1-a.html');
      expect((error as Error).message).toMatch(
        /^content\/pl\/posts\/1-a\.html:\d+: invalid front matter/,
      );
    }
  });

  it('names the field and its line for an unknown or wrong-typed field', () => {
    const unknown = '---\nid: 1\ntype: pages\nlang: pl\n\nsticky: true\n---\nx\n';
    expect(() => parseCheckout(unknown, 'a.html')).toThrow(
      /^a\.html:6: field "sticky" is not an editable field of pages/,
    );
    const badId = '---\nid: abc\ntype: posts\nlang: pl\n---\nx\n';
    expect(() => parseCheckout(badId, 'b.html')).toThrow(
      /^b\.html:2: field "id" must be a positive whole number/,
    );
    const badType = '---\ntype: media\nlang: pl\n---\nx\n';
    expect(() => parseCheckout(badType, 'c.html')).toThrow(
      /field "type" must be "posts" or "pages"/,
    );
  });

  it('refuses markers that disagree with the file place, and files without front matter', () => {
    const text = '---\nid: 1\ntype: posts\nlang: es\n---\nx\n';
    expect(() => parseCheckout(text, 'a.html', { type: 'posts', lang: 'pl' })).toThrow(
      /field "lang" is "es" but the file is under pl\//,
    );
    expect(() => parseCheckout('<p>only html</p>', 'd.html')).toThrow(InputError);
    expect(() => parseCheckout('---\n- a\n- b\n---\nx', 'e.html')).toThrow(
      /front matter must be a mapping/,
    );
  });
});

describe('fileSafeSlug and checkoutPath', () => {
  it('keeps letters of any script and turns separators and dots into hyphens', () => {
    expect(fileSafeSlug('zażółć-gęślą')).toBe('zażółć-gęślą');
    expect(fileSafeSlug('%d0%bf%d1%80%d0%b8%d0%b2%d0%b5%d1%82')).toBe('привет');
    expect(fileSafeSlug('../../etc/passwd')).toBe('etc-passwd');
    expect(fileSafeSlug('%2e%2e%2fsecret')).toBe('secret');
    expect(fileSafeSlug('a\\b\u0001c')).toBe('a-b-c');
    expect(fileSafeSlug('..')).toBe('item');
    expect(fileSafeSlug('')).toBe('item');
  });

  it('bounds long slugs to 100 UTF-8 bytes without splitting a character', () => {
    const long = fileSafeSlug('ż'.repeat(300));
    expect(Buffer.byteLength(long)).toBe(100);
    expect(long).toBe('ż'.repeat(50));
    expect(Buffer.byteLength(fileSafeSlug('a'.repeat(400)))).toBe(100);
  });

  it('builds {dir}/{lang}/{type}/{id}-{slug}.html inside dir, whatever the slug', () => {
    const dir = path.resolve('/tmp/co');
    expect(checkoutPath(dir, { lang: 'pl', type: 'posts', id: 7, slug: 'hello' })).toBe(
      path.join(dir, 'pl/posts/7-hello.html'),
    );
    expect(checkoutPath(dir, { lang: 'pl', type: 'pages', id: 8, slug: '/etc/../../x' })).toBe(
      path.join(dir, 'pl/pages/8-etc-x.html'),
    );
    expect(() => checkoutPath(dir, { lang: '../x', type: 'posts', id: 1, slug: 'a' })).toThrow(
      UnsafePathError,
    );
  });

  it('locates item files by their place and ignores everything else', () => {
    const dir = path.resolve('/tmp/co');
    expect(locateCheckoutFile(dir, path.join(dir, 'es/pages/new.html'))).toEqual({
      lang: 'es',
      type: 'pages',
    });
    expect(locateCheckoutFile(dir, path.join(dir, 'es/media/1.html'))).toBeUndefined();
    expect(locateCheckoutFile(dir, path.join(dir, 'es/posts/1.md'))).toBeUndefined();
    expect(locateCheckoutFile(dir, path.join(dir, 'es/posts/sub/1.html'))).toBeUndefined();
    expect(locateCheckoutFile(dir, '/elsewhere/pl/posts/1.html')).toBeUndefined();
  });
});
