/**
 * What the protocol and fault cases share: a cache made once by a good pull and copied for
 * every case, a `pull` through the CLI against the hostile server, the bound on list requests
 * the issue sets (3·⌈N/per_page⌉ + 10 per collection), and the oracles: the site's published
 * ids (from the reference site's control, never from `src/`), the cache's ids and a digest of
 * every row of `items`.
 */
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { runCliCaptured, type CliResult } from '../run-cli.js';
import { itemsDigest } from '../bad-input-harness.js';
import type { HostileServer, Scenario } from './hostile-server.js';

export { itemsDigest };

/** `per_page` of every crawl request: the routes' maximum. */
export const PER_PAGE = 100;

/** The bound of issue 14: list requests of one collection holding `n` items. */
export function listBound(n: number): number {
  return 3 * Math.ceil(n / PER_PAGE) + 10;
}

/** Copies a cache file (and its WAL side files, when present) to `to`. */
export function copyCache(from: string, to: string): void {
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(from + suffix)) copyFileSync(from + suffix, to + suffix);
  }
}

/** A pipeline file with these `http` settings (no pacing: tests should not wait for it). */
export function writePipeline(dir: string, name: string, http: Record<string, number>): string {
  const file = join(dir, name);
  const lines = Object.entries({ requestsPerSecond: 0, ...http }).map(
    ([key, value]) => `  ${key}: ${value}`,
  );
  writeFileSync(file, `http:\n${lines.join('\n')}\n`);
  return file;
}

/** Runs `cms-mirror pull --json` of `lang` against the hostile server into `cache`. */
export function pullThrough(
  server: HostileServer,
  cache: string,
  pipeline: string,
  options: { lang?: string; env?: NodeJS.ProcessEnv; extra?: string[] } = {},
): Promise<CliResult> {
  return runCliCaptured(
    [
      'pull',
      '--site',
      server.url,
      '--lang',
      options.lang ?? 'pl',
      '--cache',
      cache,
      '--pipeline',
      pipeline,
      '--json',
      ...(options.extra ?? []),
    ],
    { env: options.env ?? {} },
  );
}

/** The single `cms-mirror: …` error line of a failed command (and no stack). */
export function errorLine(result: CliResult): string {
  expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
  const lines = result.stderr.split('\n').filter((line) => line.startsWith('cms-mirror: '));
  expect(lines, result.stderr).toHaveLength(1);
  return lines[0] as string;
}

/** Ids of the live (not tombstoned) items of one collection in the cache. */
export function cachedIds(cache: string, lang: string, type: string): number[] {
  const db = new Database(cache, { readonly: true, fileMustExist: true });
  try {
    return (
      db
        .prepare(
          'SELECT id FROM items WHERE lang = ? AND type = ? AND deleted_at IS NULL ORDER BY id',
        )
        .all(lang, type) as { id: number }[]
    ).map((row) => row.id);
  } finally {
    db.close();
  }
}

/** Ids the reference site publishes in one collection (from its control, not from `src/`). */
export function publishedIds(
  server: HostileServer,
  lang: string,
  type: 'posts' | 'pages' | 'media',
): number[] {
  return server.site.control
    .listItems(lang, type)
    .filter((item) => item.status === (type === 'media' ? 'inherit' : 'publish'))
    .map((item) => item.id)
    .sort((a, b) => a - b);
}

/**
 * `scenario`, but once the server has answered `max` list requests every further request gets
 * a 410: a crawl that does not stop on its own then fails its bound instead of hanging the test.
 */
export function guarded(server: HostileServer, scenario: Scenario, max = 400): Scenario {
  return (ctx) => {
    if (server.requests.filter((r) => r.list !== undefined).length > max) {
      return {
        status: 410,
        body: JSON.stringify({
          code: 'hostile_runaway',
          message: 'runaway',
          data: { status: 410 },
        }),
      };
    }
    return scenario(ctx);
  };
}
