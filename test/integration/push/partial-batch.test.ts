import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ReferenceSite } from '../../../src/reference/index.js';
import { checkout } from '../../../src/push/index.js';
import { openStore } from '../../../src/store/index.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { mirrorLanguage } from '../../helpers/push-site-fixture.js';
import { credentialEnv } from '../../helpers/cli-args.js';

/**
 * `require-all-validate` checks arguments only (observed-behaviour.md, Batch): an edit the
 * server refuses when saving (`rest_invalid_author`) does not stop the others. push must say
 * per file what landed and what did not.
 */
describe('push of a batch the site saves in part', () => {
  let site: ReferenceSite;
  let temp: TempCache;
  let dir: string;

  const fixture = useSiteAndCache();

  beforeEach(async () => {
    ({ site, temp } = fixture);
    dir = path.join(temp.dir, 'content');
    const store = openStore(temp.file);
    try {
      await mirrorLanguage(site, 'pl', store);
      checkout({ store, dir, languages: ['pl'] });
    } finally {
      store.close();
    }
  });

  const fileOf = (id: number): string => {
    const store = openStore(temp.file);
    try {
      const row = store.checkouts.get('pl', 'posts', id);
      if (!row) throw new Error(`post ${id} was not checked out`);
      return row.file;
    } finally {
      store.close();
    }
  };
  const edit = (file: string, from: RegExp, to: string): void => {
    const text = readFileSync(file, 'utf8');
    const next = text.replace(from, to);
    expect(next).not.toBe(text);
    writeFileSync(file, next);
  };

  it('reports the file the site refused at save time and lands the other (exit 3)', async () => {
    const [a, b] = site.control
      .listItems('pl', 'posts')
      .filter((item) => item.status === 'publish' && item.password === '')
      .map((item) => item.id);
    if (a === undefined || b === undefined) throw new Error('the seed has two published posts');
    const authorBefore = site.control.getItem('pl', 'posts', b)?.author;
    edit(fileOf(a), /^title: .*$/m, 'title: Ten zapis przechodzi');
    edit(fileOf(b), /^author: .*$/m, 'author: 999');

    const result = await runCliCaptured(
      ['push', '--site', site.url, '--lang', 'pl', '--cache', temp.file, '--dir', dir],
      {
        env: credentialEnv(site),
        cwd: temp.dir,
      },
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      `failed: ${fileOf(b)}: rest_invalid_author: Invalid author ID. (kept pending)\n`,
    );
    expect(result.stdout).toMatch(
      /0 created, 1 updated, 0 trashed; 0 conflict\(s\), 1 failed, 1 pending/,
    );
    expect(site.control.getItem('pl', 'posts', a)?.title).toBe('Ten zapis przechodzi');
    expect(site.control.getItem('pl', 'posts', b)?.author).toBe(authorBefore);
  });
});
