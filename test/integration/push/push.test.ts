import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ReferenceSite } from '../../../src/reference/index.js';
import { checkout, openSiteSession, PUSH_NEEDS, sendQueuedEdits } from '../../../src/push/index.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import { useSiteAndCache, type SiteAndCache } from '../../helpers/mirror-fixture.js';
import { mirrorLanguage, siteClient } from '../../helpers/push-site-fixture.js';
import { credentialEnv } from '../../helpers/cli-args.js';

type Item = Record<string, unknown> & { id: number };

describe('push against the reference site', () => {
  let site: ReferenceSite;
  let temp: TempCache;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  async function setUp(fixture: SiteAndCache) {
    ({ site, temp } = fixture);
    dir = path.join(temp.dir, 'content');
    env = credentialEnv(site);
    const store = openStore(temp.file);
    try {
      await mirrorLanguage(site, 'pl', store);
      checkout({ store, dir, languages: ['pl'] });
    } finally {
      store.close();
    }
  }

  const withStore = <T>(fn: (store: Store) => T): T => {
    const store = openStore(temp.file);
    try {
      return fn(store);
    } finally {
      store.close();
    }
  };
  const fileOf = (type: 'posts' | 'pages', id: number) =>
    withStore((store) => store.checkouts.get('pl', type, id)!.file);
  const editFile = (file: string, from: RegExp, to: string) => {
    const text = readFileSync(file, 'utf8');
    const next = text.replace(from, to);
    expect(next).not.toBe(text);
    writeFileSync(file, next);
  };
  const published = (type: 'posts' | 'pages') =>
    withStore((store) =>
      [...store.items.iterate('pl', type, { statuses: ['publish'] })].map((item) => item.id),
    );
  const batchCalls = (since: number) =>
    site.requests
      .slice(since)
      .filter((entry) => entry.method === 'POST' && entry.path === '/batch/v1');
  const push = (...args: string[]) =>
    runCliCaptured(
      ['push', '--site', site.url, '--lang', 'pl', '--cache', temp.file, '--dir', dir, ...args],
      { env, cwd: temp.dir },
    );
  const get = async (type: string, id: number): Promise<Item> => {
    const client = siteClient(site.url, 'pl', site.credentials);
    try {
      return (await client.get<Item>(`cms/v2/${type}/${id}`, { context: 'edit' })).data;
    } finally {
      await client.close();
    }
  };
  const revisionCount = async (type: string, id: number): Promise<number> => {
    const client = siteClient(site.url, 'pl', site.credentials);
    try {
      return (await client.listPage(`cms/v2/${type}/${id}/revisions`, { per_page: 100 })).items
        .length;
    } finally {
      await client.close();
    }
  };

  describe('with the default seed', () => {
    const fixture = useSiteAndCache();
    beforeEach(() => setUp(fixture));

    it('sends two post titles and one page body in exactly one batch call, recorded as revisions', async () => {
      const [postA, postB] = published('posts');
      const [pageId] = published('pages');
      const revisionsBefore = await revisionCount('posts', postA!);
      editFile(fileOf('posts', postA!), /^title: .*$/m, 'title: Pierwszy nowy tytuł');
      editFile(fileOf('posts', postB!), /^title: .*$/m, 'title: "Drugi: nowy"');
      const pageFile = fileOf('pages', pageId!);
      writeFileSync(
        pageFile,
        readFileSync(pageFile, 'utf8').replace(
          /\n---\n[\s\S]*$/,
          '\n---\n<p>Nowa treść strony</p>\n',
        ),
      );
      const before = site.requests.length;

      const result = await push('--json');
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        sent: 3,
        batches: 1,
        created: 0,
        updated: 3,
        trashed: 0,
        conflicts: 0,
        failed: 0,
        pending: 0,
        invalid: 0,
      });
      expect(batchCalls(before)).toHaveLength(1);

      expect((await get('posts', postA!)).title).toMatchObject({ raw: 'Pierwszy nowy tytuł' });
      expect((await get('posts', postB!)).title).toMatchObject({ raw: 'Drugi: nowy' });
      expect((await get('pages', pageId!)).content).toMatchObject({
        raw: '<p>Nowa treść strony</p>',
      });
      expect(await revisionCount('posts', postA!)).toBeGreaterThan(revisionsBefore);

      // The cache and the checkout now hold the site's version: a second push sends nothing.
      const again = await push('--json');
      expect(JSON.parse(again.stdout)).toMatchObject({ sent: 0, batches: 0, pending: 0 });
      const remote = await get('posts', postA!);
      withStore((store) => {
        expect(store.checkouts.get('pl', 'posts', postA!)?.baseModifiedGmt).toBe(
          remote.modified_gmt,
        );
        expect(store.edits.list({ state: 'done' })).toHaveLength(3);
      });
    });

    it('keeps a conflicting edit back (exit 3), and --force then wins', async () => {
      const [postId] = published('posts');
      const file = fileOf('posts', postId!);
      editFile(file, /^title: .*$/m, 'title: Moja wersja');
      const other = siteClient(site.url, 'pl', site.otherCredentials);
      try {
        await other.request('POST', `cms/v2/posts/${postId}`, { body: { title: 'Ich wersja' } });
      } finally {
        await other.close();
      }
      const before = site.requests.length;
      const result = await push();
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(/conflict: .*changed on the site since checkout/);
      expect(batchCalls(before)).toHaveLength(0);
      expect((await get('posts', postId!)).title).toMatchObject({ raw: 'Ich wersja' });
      expect(readFileSync(file, 'utf8')).toContain('title: Moja wersja');
      withStore((store) =>
        expect(store.edits.list({ state: 'pending' })[0]?.error).toMatch(/^conflict: /),
      );

      const forced = await push('--force', '--json');
      expect(forced.code).toBe(0);
      expect(JSON.parse(forced.stdout)).toMatchObject({ updated: 1, conflicts: 0, pending: 0 });
      expect((await get('posts', postId!)).title).toMatchObject({ raw: 'Moja wersja' });
    });

    it('refuses an invalid status locally: exit 2, nothing sent', async () => {
      const [a, b] = published('posts');
      editFile(fileOf('posts', a!), /^status: .*$/m, 'status: publishd');
      editFile(fileOf('posts', b!), /^title: .*$/m, 'title: Valid change');
      const before = site.requests.length;
      const result = await push();
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        'status must be one of publish, future, draft, pending, private, got "publishd"',
      );
      expect(site.requests.slice(before).filter((entry) => entry.method !== 'GET')).toEqual([]);
      expect((await get('posts', b!)).title).not.toMatchObject({ raw: 'Valid change' });
    });

    it('lets the site judge: require-all-validate sends one batch and nothing lands; normal lands the valid ones', async () => {
      const [a, b, c] = published('posts');
      const titleOf = async (id: number) => ((await get('posts', id)).title as { raw: string }).raw;
      const originalB = await titleOf(b!);
      const queue = (store: Store) => {
        const base = (id: number) => store.checkouts.get('pl', 'posts', id)!.baseModifiedGmt;
        store.edits.add({
          lang: 'pl',
          type: 'posts',
          itemId: a!,
          fields: { status: 'publishd' },
          baseModifiedGmt: base(a!),
        });
        store.edits.add({
          lang: 'pl',
          type: 'posts',
          itemId: b!,
          fields: { title: 'B landed' },
          baseModifiedGmt: base(b!),
        });
        store.edits.add({
          lang: 'pl',
          type: 'posts',
          itemId: c!,
          fields: { title: 'C landed' },
          baseModifiedGmt: base(c!),
        });
      };
      const run = async (validation: 'require-all-validate' | 'normal') => {
        const store = openStore(temp.file);
        const session = await openSiteSession({
          site: site.url,
          lang: 'pl',
          credentials: site.credentials,
          http: { requestsPerSecond: 0 },
          needs: PUSH_NEEDS,
        });
        try {
          return await sendQueuedEdits({
            store,
            session: async () => session,
            validation,
            localEnumCheck: false,
          });
        } finally {
          await session.client.close();
          store.close();
        }
      };
      withStore(queue);
      let before = site.requests.length;
      const strict = await run('require-all-validate');
      expect(batchCalls(before)).toHaveLength(1);
      expect(strict.updated).toBe(0);
      expect(strict.failed).toEqual([
        {
          edit: expect.any(Number),
          label: `pl/posts/${a}`,
          code: 'rest_invalid_param',
          message: expect.stringMatching(/status/),
        },
      ]);
      expect(strict.pending).toBe(3);
      expect(await titleOf(b!)).toBe(originalB);
      withStore((store) =>
        expect(store.edits.list({ state: 'pending' }).map((edit) => edit.error)).toEqual([
          'not_run: not run: another request in the same batch failed validation',
          'not_run: not run: another request in the same batch failed validation',
        ]),
      );

      before = site.requests.length;
      const normal = await run('normal');
      expect(batchCalls(before)).toHaveLength(1);
      expect(normal.updated).toBe(2);
      expect(normal.pending).toBe(1);
      expect(await titleOf(b!)).toBe('B landed');
      expect(await titleOf(c!)).toBe('C landed');
      withStore((store) => {
        const [left] = store.edits.list({ state: 'failed' });
        expect(left?.itemId).toBe(a);
        expect(left?.error).toMatch(/^rest_invalid_param: .*status/);
      });
    });

    it('creates an item from a new file, giving the file its id and name', async () => {
      const fresh = path.join(dir, 'pl', 'posts', 'draft-idea.html');
      writeFileSync(
        fresh,
        '---\ntitle: Nowy wpis\nslug: nowy-wpis\nstatus: draft\n---\n<p>Szkic</p>\n',
      );
      const result = await push('--json');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ created: 1, sent: 1, batches: 1 });
      const created = withStore((store) => store.edits.list({ state: 'done' })[0]!);
      const id = created.itemId!;
      const renamed = path.join(dir, 'pl', 'posts', `${id}-nowy-wpis.html`);
      expect(readFileSync(renamed, 'utf8')).toMatch(
        new RegExp(`^---\\nid: ${id}\\ntype: posts\\nlang: pl\\ntitle: Nowy wpis\\n`),
      );
      expect(() => readFileSync(fresh)).toThrow();
      expect((await get('posts', id)).status).toBe('draft');
      expect(JSON.parse((await push('--json')).stdout)).toMatchObject({ sent: 0, created: 0 });
    });

    it('trashes on status: trash and on --delete, never for a missing file', async () => {
      const [a, b] = published('posts');
      editFile(fileOf('posts', a!), /^status: .*$/m, 'status: trash');
      const result = await push('--delete', String(b), '--json');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ trashed: 2, sent: 2, batches: 1 });
      expect((await get('posts', a!)).status).toBe('trash');
      expect((await get('posts', b!)).status).toBe('trash');
    });

    it('--dry-run says what it would send and sends nothing', async () => {
      const [postId] = published('posts');
      editFile(fileOf('posts', postId!), /^title: .*$/m, 'title: Only planned');
      const before = site.requests.length;
      const result = await push('--dry-run');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`would send pl POST /cms/v2/posts/${postId} (`);
      expect(result.stdout).toContain('push --dry-run: 1 request(s) would be sent, 0 conflict(s)');
      expect(batchCalls(before)).toEqual([]);
      withStore((store) => expect(store.edits.list({ state: 'pending' })).toHaveLength(1));
    });

    it('needs credentials', async () => {
      const result = await runCliCaptured(
        ['push', '--site', site.url, '--lang', 'pl', '--cache', temp.file, '--dir', dir],
        { env: {}, cwd: temp.dir },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        'writing to the site needs credentials: set CMS_USER and CMS_APP_PASSWORD',
      );
    });
  });

  describe('with 80 posts', () => {
    const fixture = useSiteAndCache({ posts: 80 });
    beforeEach(() => setUp(fixture));

    it('sends 60 edited items in 3 batch calls of at most 25', async () => {
      const ids = published('posts').slice(0, 60);
      expect(ids).toHaveLength(60);
      for (const id of ids) editFile(fileOf('posts', id), /^title: .*$/m, `title: Batch ${id}`);
      const before = site.requests.length;
      const result = await push('--json');
      expect(JSON.parse(result.stdout)).toMatchObject({
        sent: 60,
        batches: 3,
        updated: 60,
        pending: 0,
      });
      expect(batchCalls(before)).toHaveLength(3);
      expect((await get('posts', ids[59]!)).title).toMatchObject({ raw: `Batch ${ids[59]}` });
    });
  });
});
