import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { checkout, recordDeletes, recordFileEdits } from '../../../src/push/index.js';
import type { Store } from '../../../src/store/index.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import { useTempStore } from '../../helpers/store/temp-store.js';

const post = (id: number, title: string, modified = '2024-01-01T10:00:00') => ({
  id,
  slug: `post-${id}`,
  status: 'publish',
  date_gmt: '2024-01-01T09:00:00',
  modified_gmt: modified,
  title: { raw: title, rendered: title },
  content: { raw: `<p>Body ${id}</p>`, rendered: `<p>Body ${id}</p>` },
  excerpt: { raw: '', rendered: '' },
  sticky: false,
  format: 'standard',
  categories: [1],
  tags: [],
  link: `http://site/pl/2024/01/post-${id}/`,
});

describe('checkout and recording edits (real SQLite, real files)', () => {
  const cache = useTempStore();
  let dir: string;

  beforeEach(() => {
    dir = path.join(cache.temp.dir, 'content');
    cache.store.items.upsertPage('pl', 'posts', [post(1, 'One'), post(2, 'Two')], {
      context: 'edit',
    });
    cache.store.items.upsertPage(
      'pl',
      'pages',
      [
        {
          id: 5,
          slug: 'about',
          status: 'draft',
          parent: 0,
          menu_order: 0,
          modified_gmt: '2024-01-02T00:00:00',
          title: { raw: 'About' },
          content: { raw: '<p>A</p>' },
        },
      ],
      { context: 'edit' },
    );
  });

  it('writes one file per item with its base and hash, and a second run writes nothing', () => {
    const first = checkout({ store: cache.store, dir, languages: ['pl'] });
    expect(first).toEqual({ written: 3, unchanged: 0, keptLocal: [], items: 3 });
    const file = path.join(dir, 'pl/posts/1-post-1.html');
    expect(readFileSync(file, 'utf8')).toContain('title: One\n');
    expect(cache.store.checkouts.get('pl', 'posts', 1)).toMatchObject({
      file,
      baseModifiedGmt: '2024-01-01T10:00:00',
    });
    expect(checkout({ store: cache.store, dir, languages: ['pl'] })).toEqual({
      written: 0,
      unchanged: 3,
      keptLocal: [],
      items: 3,
    });
    expect(recordFileEdits({ store: cache.store, dir }).recorded).toEqual([]);
  });

  it('never overwrites a locally edited file, and says so', () => {
    checkout({ store: cache.store, dir, languages: ['pl'] });
    const file = path.join(dir, 'pl/posts/1-post-1.html');
    writeFileSync(file, readFileSync(file, 'utf8').replace('title: One', 'title: Mine'));
    cache.store.items.upsertPage('pl', 'posts', [post(1, 'Remote', '2024-02-01T00:00:00')], {
      context: 'edit',
    });
    const again = checkout({ store: cache.store, dir, languages: ['pl'] });
    expect(again.keptLocal).toEqual([file]);
    expect(readFileSync(file, 'utf8')).toContain('title: Mine');
  });

  it('records only the changed fields, a create for a file without id, a trash for status: trash', () => {
    checkout({ store: cache.store, dir, languages: ['pl'] });
    const one = path.join(dir, 'pl/posts/1-post-1.html');
    const two = path.join(dir, 'pl/posts/2-post-2.html');
    writeFileSync(
      one,
      readFileSync(one, 'utf8')
        .replace('title: One', 'title: Changed')
        .replace('<p>Body 1</p>', '<p>New body</p>'),
    );
    writeFileSync(two, readFileSync(two, 'utf8').replace('status: publish', 'status: trash'));
    const fresh = path.join(dir, 'pl/pages/new-page.html');
    writeFileSync(fresh, '---\ntitle: Fresh\nstatus: draft\n---\n<p>F</p>\n');
    const result = recordFileEdits({ store: cache.store, dir });
    expect(result.problems).toEqual([]);
    expect(
      result.recorded.map((edit) => [edit.type, edit.itemId, edit.fields, edit.baseModifiedGmt]),
    ).toEqual([
      ['posts', 1, { title: 'Changed', content: '<p>New body</p>' }, '2024-01-01T10:00:00'],
      ['posts', 2, { status: 'trash' }, '2024-01-01T10:00:00'],
      ['pages', null, { title: 'Fresh', status: 'draft', content: '<p>F</p>' }, null],
    ]);
    // Saving again refreshes the same edit; reverting the file drops it.
    writeFileSync(one, readFileSync(one, 'utf8').replace('title: Changed', 'title: Again'));
    const again = recordFileEdits({ store: cache.store, dir, files: [one] });
    expect(again.recorded[0]?.id).toBe(result.recorded[0]?.id);
    expect(cache.store.edits.list({ state: 'pending' })).toHaveLength(3);
    checkoutRevert(cache.store, one);
    recordFileEdits({ store: cache.store, dir, files: [one] });
    expect(cache.store.edits.list({ state: 'pending' }).map((edit) => edit.itemId)).toEqual([
      2,
      null,
    ]);
  });

  it('reports unreadable front matter as a problem naming the file and line, and queues nothing for it', () => {
    checkout({ store: cache.store, dir, languages: ['pl'] });
    const one = path.join(dir, 'pl/posts/1-post-1.html');
    writeFileSync(one, readFileSync(one, 'utf8').replace('title: One', 'title: [broken'));
    const result = recordFileEdits({ store: cache.store, dir });
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]?.message).toMatch(
      new RegExp(`^${one.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+: invalid front matter`),
    );
    expect(result.recorded).toEqual([]);
  });

  it('queues --delete ids as trash requests, never a missing file', () => {
    checkout({ store: cache.store, dir, languages: ['pl'] });
    const two = path.join(dir, 'pl/posts/2-post-2.html');
    writeFileSync(two, ''); // emptied, then removed: still not a delete request
    rmSync(two);
    expect(existsSync(two)).toBe(false);
    expect(recordFileEdits({ store: cache.store, dir }).recorded).toEqual([]);
    const [edit] = recordDeletes(cache.store, [{ lang: 'pl', type: 'posts', id: 2 }]);
    expect(edit).toMatchObject({ itemId: 2, fields: { status: 'trash' }, state: 'pending' });
  });

  it('checkout runs from the command line', async () => {
    cache.store.close();
    const result = await runCliCaptured(
      [
        'checkout',
        '--cache',
        cache.temp.file,
        '--dir',
        dir,
        '--lang',
        'pl',
        '--type',
        'pages',
        '--json',
      ],
      { cwd: cache.temp.dir },
    );
    cache.reopen();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      written: 1,
      unchanged: 0,
      keptLocal: [],
      items: 1,
    });
    expect(existsSync(path.join(dir, 'pl/pages/5-about.html'))).toBe(true);
    const bad = await runCliCaptured(['checkout', '--cache', cache.temp.file, '--type', 'media'], {
      cwd: cache.temp.dir,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--type: expected posts and/or pages, got "media"');
  });
});

function checkoutRevert(store: Store, file: string): void {
  // Put the file back exactly as checked out: its hash matches the recorded one again.
  const text = readFileSync(file, 'utf8')
    .replace('title: Again', 'title: One')
    .replace('<p>New body</p>', '<p>Body 1</p>');
  writeFileSync(file, text);
  expect(store.checkouts.getByFile(file)).toBeDefined();
}
