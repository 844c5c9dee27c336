/**
 * Deep JSON (issue 14, point 2): one otherwise valid record with a field nested 1,000 or 2,000
 * deep used to stop every pull with an internal error, so the collection could never be
 * mirrored again. Now: the record is skipped with ONE warning naming its id, counted in
 * `pull --json`, every other record is mirrored, the next pull works too, and `verify`
 * reports the record as skipped (not missing).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/run-cli.js';
import { tempCache, type TempCache } from '../helpers/temp-cache.js';
import { startHostileServer } from '../helpers/hostile/hostile-server.js';
import type { HostileServer } from '../helpers/hostile/hostile-server.js';
import {
  cachedIds,
  copyCache,
  listBound,
  publishedIds,
  pullThrough,
  writePipeline,
} from '../helpers/hostile/protocol-harness.js';

type Collection = 'posts' | 'pages' | 'media';

interface DeepCase {
  readonly name: string;
  readonly collection: Collection;
  /** The JSON text inserted as the record's `deep` field. */
  readonly field: string;
  /** Whether the id is kept (false: the record also loses its id). */
  readonly withId?: boolean;
  /** Whether the record is shallow enough to be stored. */
  readonly stored?: boolean;
}

const arrays = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

const CASES: readonly DeepCase[] = [
  { name: 'a post with a list nested 1,000 deep', collection: 'posts', field: arrays(1_000) },
  { name: 'a post with a list nested 2,000 deep', collection: 'posts', field: arrays(2_000) },
  { name: 'a post with an object nested 1,000 deep', collection: 'posts', field: objects(1_000) },
  { name: 'a post with an object nested 4,000 deep', collection: 'posts', field: objects(4_000) },
  { name: 'a page with a list nested 1,000 deep', collection: 'pages', field: arrays(1_000) },
  { name: 'a media item with a list nested 1,500 deep', collection: 'media', field: arrays(1_500) },
  {
    name: 'a post nested 1,000 deep that has no id either',
    collection: 'posts',
    field: arrays(1_000),
    withId: false,
  },
  {
    name: 'a post with a list nested 50 deep (kept)',
    collection: 'posts',
    field: arrays(50),
    stored: true,
  },
];

describe('deep JSON: the record is skipped, named, counted, and verify says so', () => {
  let server: HostileServer;
  let temp: TempCache;
  let pipeline: string;
  let caseNo = 0;

  beforeAll(async () => {
    server = await startHostileServer({ languages: ['pl'], posts: 30 });
    temp = tempCache('cms-mirror-hostile-deep-');
    pipeline = writePipeline(temp.dir, 'pipeline.yaml', { retries: 1 });
  }, 60_000);

  afterAll(async () => {
    await server.close();
    temp.cleanup();
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const cache = join(temp.dir, `case-${(caseNo += 1)}.sqlite`);
      const target = publishedIds(server, 'pl', c.collection)[1] as number;
      server.setScenario(async (ctx) => {
        if (ctx.request.list?.collection !== c.collection) return undefined;
        const up = await ctx.forward();
        const text = up.body
          .toString()
          .replace(
            `"id":${target},`,
            c.withId === false ? `"deep":${c.field},` : `"id":${target},"deep":${c.field},`,
          );
        return { status: up.status, headers: up.headers, body: text };
      });
      try {
        server.clearLog();
        const first = await pullThrough(server, cache, pipeline);
        expect(first.code, first.stderr).toBe(0);
        expect(first.stderr).not.toMatch(/internal error|\n\s+at /);
        expect(server.listRequests(c.collection)).toBeLessThanOrEqual(
          listBound(publishedIds(server, 'pl', c.collection).length),
        );
        const summary = JSON.parse(first.stdout) as {
          total: { skipped: number };
          languages: Record<string, { skipped: number }>;
        };
        const others = publishedIds(server, 'pl', c.collection).filter((id) => id !== target);
        if (c.stored === true) {
          expect(summary.total.skipped).toBe(0);
          expect(cachedIds(cache, 'pl', c.collection)).toContain(target);
          return;
        }
        expect(summary.total.skipped).toBe(1);
        expect(summary.languages['pl']?.skipped).toBe(1);
        // One warning names the record (a record without an id also makes the counts differ,
        // which the pull says in a second line before its one rescan).
        const warnings = first.stderr
          .split('\n')
          .filter((line) => line.startsWith('warning:') && line.includes('skipped'));
        expect(warnings).toHaveLength(1);
        if (c.withId !== false) expect(first.stderr).not.toMatch(/rescanning/);
        expect(warnings[0]).toMatch(
          c.withId === false
            ? new RegExp(`${c.collection}: skipped a bad record: no positive integer id`)
            : new RegExp(
                `${c.collection}: skipped a bad record \\(id ${target}\\): nested deeper than \\d+ levels`,
              ),
        );
        expect(cachedIds(cache, 'pl', c.collection)).toEqual(others);

        // The next pull works too (it used to fail on every run), and loses nothing.
        const second = await pullThrough(server, cache, pipeline);
        expect(second.code, second.stderr).toBe(0);
        expect(cachedIds(cache, 'pl', c.collection)).toEqual(others);

        const verify = await runCliCaptured([
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
        ]);
        const report = JSON.parse(verify.stdout) as {
          collections: { collection: string; missing: number; skipped: number }[];
          differences: { id: number; kind: string }[];
        };
        const row = report.collections.find((entry) => entry.collection === c.collection);
        if (c.withId === false) {
          // Without an id the site's listing cannot name it: nothing to report, nothing missing.
          expect(row?.missing).toBe(0);
          return;
        }
        expect(verify.code, verify.stderr).toBe(0);
        expect(row?.skipped).toBe(1);
        expect(row?.missing).toBe(0);
        expect(report.differences).toContainEqual(
          expect.objectContaining({ id: target, kind: 'skipped' }),
        );
      } finally {
        server.setScenario(undefined);
      }
    });
  }

  it('keeps the version an earlier pull stored when a record turns deep', async () => {
    const cache = join(temp.dir, 'kept.sqlite');
    const good = await pullThrough(server, cache, pipeline);
    expect(good.code, good.stderr).toBe(0);
    const target = publishedIds(server, 'pl', 'posts')[2] as number;
    expect(cachedIds(cache, 'pl', 'posts')).toContain(target);
    const copy = join(temp.dir, 'kept-copy.sqlite');
    copyCache(cache, copy);
    server.site.control.updateItem('pl', 'posts', target, { title: 'Now deep' });
    server.setScenario(async (ctx) => {
      if (ctx.request.list?.collection !== 'posts') return undefined;
      const up = await ctx.forward();
      const text = up.body
        .toString()
        .replace(`"id":${target},`, `"id":${target},"deep":${arrays(1_000)},`);
      return { status: up.status, headers: up.headers, body: text };
    });
    try {
      const result = await pullThrough(server, copy, pipeline);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(new RegExp(`skipped a bad record \\(id ${target}\\)`));
      expect(cachedIds(copy, 'pl', 'posts')).toEqual(cachedIds(cache, 'pl', 'posts'));
    } finally {
      server.setScenario(undefined);
    }
  });
});
