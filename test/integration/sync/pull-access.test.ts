import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { pull, type PullEvent } from '../../../src/sync/index.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { credentialEnv } from '../../helpers/cli-args.js';
import { getJson } from '../../helpers/reference.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import { settingsFor } from '../../helpers/mirror-check.js';

/**
 * Valid credentials of users whose role may not read what the pull asks for
 * (observed-behaviour.md, Auth): told apart from a wrong password by one check up front,
 * before anything is stored.
 */
describe('pull with credentials of a weak role', () => {
  const fixture = useSiteAndCache({ languages: ['pl'] });

  function env(role: 'author' | 'subscriber' | 'wrong'): NodeJS.ProcessEnv {
    const { site } = fixture;
    const credentials =
      role === 'wrong'
        ? { user: site.credentials.user, password: 'wron gpas swor dxxx xxxx xxxx' }
        : site.roleCredentials[role];
    return credentialEnv({ credentials });
  }

  function args(...extra: string[]): string[] {
    const { site, temp } = fixture;
    return ['pull', '--site', site.url, '--lang', 'pl', '--cache', temp.file, ...extra];
  }

  it('a subscriber: exit 2, one line naming what was refused and what would work, no cache', async () => {
    const result = await runCliCaptured(args(), { env: env('subscriber') });
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/accepted the credentials/);
    expect(lines[0]).toMatch(/may not edit posts/);
    expect(lines[0]).toContain('403');
    expect(lines[0]).toMatch(/another user/);
    expect(lines[0]).toMatch(/without CMS_USER\/CMS_APP_PASSWORD/);
    expect(lines[0]).not.toMatch(/create a new application password/);
    expect(existsSync(fixture.temp.file)).toBe(false);
  });

  it('an author with --backup: exit 2 naming pages and the way out, before any post is stored', async () => {
    const { site } = fixture;
    const result = await runCliCaptured(args('--backup'), { env: env('author') });
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/may not list pages that are not published/);
    expect(lines[0]).toContain('rest_forbidden_status');
    expect(lines[0]).toMatch(/another user/);
    expect(lines[0]).toMatch(/without --backup/);
    expect(existsSync(fixture.temp.file)).toBe(false);
    // Nothing was crawled: only the index and the checks were asked for.
    const crawled = site.requests.filter(
      (r) => r.path === '/cms/v2/posts' && r.query['orderby'] !== undefined,
    );
    expect(crawled).toEqual([]);
  });

  it('a wrong password is still told apart: exit 2 with the password advice, no cache', async () => {
    const result = await runCliCaptured(args(), { env: env('wrong') });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/refused the credentials/);
    expect(result.stderr).toMatch(/create a new application password/);
    expect(existsSync(fixture.temp.file)).toBe(false);
  });
});

describe('a pull that stops part-way', () => {
  const fixture = useSiteAndCache({ languages: ['pl'], posts: 330 });

  it('is recorded as failed and moves no watermark past what it stored', async () => {
    const { site, temp } = fixture;
    const settings = settingsFor(site, temp.file, { languages: ['pl'] });
    settings.http = { ...settings.http, retries: 0 };
    let broken = false;
    const onProgress = (event: PullEvent): void => {
      // Once some posts are stored, every further request fails.
      if (
        !broken &&
        event.type === 'progress' &&
        event.collection === 'posts' &&
        event.phase === 'crawl' &&
        event.done >= 100
      ) {
        broken = true;
        site.control.setFaults('error=1');
      }
    };
    const error = await pull(settings, { onProgress }).catch((e: unknown) => e);
    expect(broken).toBe(true);
    expect(error).toBeInstanceOf(Error);
    site.control.setFaults(undefined);

    // What the site holds, read as an editor over HTTP: id → modified_gmt per collection.
    const remote = new Map<string, Map<number, string>>();
    for (const type of ['posts', 'pages', 'media']) {
      const byId = new Map<number, string>();
      for (let page = 1; ; page++) {
        const response = await getJson(site, 'pl', `/cms/v2/${type}`, {
          query: {
            context: 'edit',
            per_page: 100,
            page,
            status:
              type === 'media'
                ? ['inherit', 'private', 'trash']
                : ['publish', 'future', 'draft', 'pending', 'private', 'trash'],
          },
          auth: true,
        });
        expect(response.status).toBe(200);
        for (const item of response.body as { id: number; modified_gmt: string }[])
          byId.set(item.id, item.modified_gmt);
        if (page >= Number(response.headers.get('x-cms-totalpages'))) break;
      }
      remote.set(type, byId);
    }

    const store = openStore(temp.file, { readonly: true });
    try {
      const run = store.runs.list({ command: 'pull' })[0];
      expect(run?.status).toBe('failed');
      expect(String(run?.counters?.['error'])).not.toBe('');
      const posts = store.syncState.get('pl', 'posts');
      // The posts crawl did not finish: no watermark, only a resume cursor.
      expect(posts).toBeDefined();
      expect(posts!.watermarkGmt ?? null).toBeNull();
      expect(posts!.cursor).toBeInstanceOf(Object);
      const stored = store.items.count('pl', 'posts');
      expect(stored).toBeGreaterThanOrEqual(100);
      expect(stored).toBeLessThan(remote.get('posts')!.size);
      // Wherever a watermark was set, everything the site holds before it is in the cache.
      for (const [type, byId] of remote) {
        const watermark = store.syncState.get('pl', type)?.watermarkGmt ?? null;
        if (watermark === null) continue;
        for (const [id, modified] of byId) {
          if (modified >= watermark) continue;
          expect(
            store.items.get('pl', type as 'posts' | 'pages' | 'media', id)?.modifiedGmt,
            `${type} ${id}`,
          ).toBe(modified);
        }
      }
    } finally {
      store.close();
    }

    // The next pull finishes the job.
    const summary = await pull(settingsFor(site, temp.file, { languages: ['pl'] }));
    expect(summary.status).toBe('ok');
    const after = openStore(temp.file, { readonly: true });
    try {
      expect(after.items.count('pl', 'posts')).toBe(remote.get('posts')!.size);
    } finally {
      after.close();
    }
  });
});
