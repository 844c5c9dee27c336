/**
 * Endless pagination outside the crawl (issue 14, point 1): `verify` listing posts and a
 * backup pull reading a post's revisions, against a server that hands out pages without end
 * or declares an absurd total. Every case asserts: the walked route got at most the bound of
 * what its first page declared (written out in protocol-walk-cases.ts); exit 2 with ONE line
 * naming the URL and what the server did; the cache's items, revisions and autosaves as they
 * were (a backup pull keeps the one edited post, and its revisions stay queued for the next
 * pull).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialEnv } from '../helpers/cli-args.js';
import { runCliCaptured, type CliResult } from '../helpers/run-cli.js';
import { tempCache, type TempCache } from '../helpers/temp-cache.js';
import { startHostileServer } from '../helpers/hostile/hostile-server.js';
import type { HostileServer, Scenario } from '../helpers/hostile/hostile-server.js';
import {
  cachedIds,
  copyCache,
  errorLine,
  itemsDigest,
  publishedIds,
  pullThrough,
  writePipeline,
} from '../helpers/hostile/protocol-harness.js';
import { CASES, parentOf, type WalkCase } from '../helpers/hostile/protocol-walk-cases.js';

/** Past this many requests of the walked route the server answers "past the last page". */
const RUNAWAY = 300;

/** A digest of every row of `table` (revisions, autosaves, sync_queue). */
function tableDigest(cache: string, table: string): string {
  const db = new Database(cache, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2, 3, 4`).all();
    return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
  } finally {
    db.close();
  }
}

function rowCount(cache: string, table: string): number {
  const db = new Database(cache, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

function queuedRevisions(cache: string, id: number): number {
  const db = new Database(cache, { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare(
        "SELECT count(*) AS n FROM sync_queue WHERE lang = 'pl' AND task = 'revisions' AND type = 'posts' AND id = ?",
      )
      .get(id) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

describe('endless pagination in verify and backup walks: bounded, exit 2, nothing lost', () => {
  let server: HostileServer;
  let temp: TempCache;
  let pipeline: string;
  let warm: string;
  let env: NodeJS.ProcessEnv;
  let target: number;
  let caseNo = 0;

  beforeAll(async () => {
    server = await startHostileServer({ languages: ['pl'], posts: 30 });
    temp = tempCache('cms-mirror-hostile-walks-');
    pipeline = writePipeline(temp.dir, 'pipeline.yaml', { retries: 1, timeoutMs: 10_000 });
    env = credentialEnv(server.site);
    warm = join(temp.dir, 'warm.sqlite');
    const good = await pullThrough(server, warm, pipeline, { env, extra: ['--backup'] });
    expect(good.code, good.stderr).toBe(0);
    // The digests below are over real rows: the good backup stored revisions.
    expect(rowCount(warm, 'revisions')).toBeGreaterThan(0);
    target = publishedIds(server, 'pl', 'posts')[3] as number;
  }, 60_000);

  afterAll(async () => {
    await server.close();
    temp.cleanup();
  });

  /** Counts the walked route's requests and answers them as the case says. */
  function scenario(c: WalkCase, seen: { n: number }): Scenario {
    return (ctx) => {
      // verify's walk, not its one-item credential check (per_page=1) before it.
      const hit =
        c.walk === 'verify'
          ? ctx.request.list?.collection === 'posts' && ctx.url.searchParams.get('per_page') !== '1'
          : parentOf(c.walk, ctx.url.pathname) !== undefined;
      if (!hit || ctx.request.method !== 'GET') return undefined;
      seen.n += 1;
      if (seen.n > RUNAWAY) {
        const body = {
          code: 'rest_post_invalid_page_number',
          message: 'runaway',
          data: { status: 400 },
        };
        return { status: 400, body: JSON.stringify(body) };
      }
      const page = Number(ctx.url.searchParams.get('page') ?? '1');
      const perPage = Number(ctx.url.searchParams.get('per_page') ?? '10');
      return c.answer(page, perPage, ctx);
    };
  }

  function verifyThrough(cache: string): Promise<CliResult> {
    return runCliCaptured(
      [
        'verify',
        '--site',
        server.url,
        '--lang',
        'pl',
        '--cache',
        cache,
        '--pipeline',
        pipeline,
        '--json',
      ],
      { env },
    );
  }

  for (const c of CASES) {
    it(c.name, async () => {
      const cache = join(temp.dir, `case-${(caseNo += 1)}.sqlite`);
      copyCache(warm, cache);
      const items = itemsDigest(cache);
      const revisions = tableDigest(cache, 'revisions');
      const autosaves = tableDigest(cache, 'autosaves');
      const held = cachedIds(cache, 'pl', 'posts');
      // A backup pull reads the revisions of what changed: edit one post on the site.
      if (c.walk !== 'verify') {
        server.site.control.updateItem('pl', 'posts', target, { title: `Edited for ${c.name}` });
      }
      const seen = { n: 0 };
      server.setScenario(scenario(c, seen));
      let result: CliResult;
      try {
        result =
          c.walk === 'verify'
            ? await verifyThrough(cache)
            : await pullThrough(server, cache, pipeline, { env, extra: ['--backup'] });
      } finally {
        server.setScenario(undefined);
      }
      expect(seen.n).toBeGreaterThanOrEqual(1);
      expect(seen.n).toBeLessThanOrEqual(c.bound);
      if (c.outcome === 'done') {
        expect(result.code, result.stderr).toBe(0);
        expect(seen.n).toBe(1);
        expect(queuedRevisions(cache, target)).toBe(0);
        return;
      }
      expect(result.code, result.stderr).toBe(2);
      const line = errorLine(result);
      const route = c.walk === 'verify' ? 'cms/v2/posts?' : `cms/v2/posts/${target}/${c.walk}?`;
      expect(line).toContain(`${server.url}/pl/cms-json/${route}`);
      expect(line).toMatch(c.message ?? /./);
      // Nothing lost: every post held is still live; revisions and autosaves as they were.
      expect(cachedIds(cache, 'pl', 'posts')).toEqual(expect.arrayContaining(held));
      expect(tableDigest(cache, 'revisions')).toBe(revisions);
      expect(tableDigest(cache, 'autosaves')).toBe(autosaves);
      if (c.walk === 'verify') {
        expect(itemsDigest(cache)).toBe(items);
      } else {
        // The edited post is stored; its revisions stay queued, so the next pull asks again.
        expect(queuedRevisions(cache, target)).toBe(1);
      }
    });
  }
});
