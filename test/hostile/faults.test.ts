/**
 * Hostile faults (issue 14, point 6b and the fault family): Retry-After far beyond
 * `http.retryAfterMaxMs`, 429 and 5xx storms, resets, stalls, slow drips, redirects to other
 * origins and in loops, error statuses. Each case pulls through the CLI into a copy of a good
 * cache and asserts: the exit code; ONE line naming the URL and saying what happened (the
 * retries made, the wait refused); how many attempts reached the posts route; the cache's
 * rows untouched when the pull fails; nothing sent to an origin that is not the site.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCache, type TempCache } from '../helpers/temp-cache.js';
import { startTinyServer, type TinyServer } from '../helpers/bad-input-harness.js';
import { startHostileServer } from '../helpers/hostile/hostile-server.js';
import type { HostileServer } from '../helpers/hostile/hostile-server.js';
import { CASES } from '../helpers/hostile/faults-cases.js';
import {
  cachedIds,
  copyCache,
  errorLine,
  guarded,
  itemsDigest,
  listBound,
  publishedIds,
  pullThrough,
  writePipeline,
} from '../helpers/hostile/protocol-harness.js';
import { credentialEnv } from '../helpers/cli-args.js';

describe('hostile faults: bounded retries, a line that says what happened, nothing lost', () => {
  let server: HostileServer;
  let other: TinyServer;
  let temp: TempCache;
  let warm: string;
  let credentials: NodeJS.ProcessEnv;
  let caseNo = 0;

  beforeAll(async () => {
    server = await startHostileServer({ languages: ['pl'], posts: 30 });
    other = await startTinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    });
    temp = tempCache('cms-mirror-hostile-faults-');
    credentials = credentialEnv(server.site);
    warm = join(temp.dir, 'warm.sqlite');
    const good = await pullThrough(
      server,
      warm,
      writePipeline(temp.dir, 'good.yaml', { retries: 1 }),
      { env: credentials },
    );
    expect(good.code, good.stderr).toBe(0);
  }, 60_000);

  afterAll(async () => {
    await other.close();
    await server.close();
    temp.cleanup();
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const n = (caseNo += 1);
      const retries = c.faults === undefined ? 2 : 5;
      const pipeline = writePipeline(temp.dir, `p-${n}.yaml`, {
        retries,
        timeoutMs: 10_000,
        ...c.http,
      });
      const cache = join(temp.dir, `case-${n}.sqlite`);
      copyCache(warm, cache);
      server.site.control.createItems('pl', 'posts', 1);
      const before = itemsDigest(cache);
      let seen = 0;
      server.clearLog();
      other.paths.length = 0;
      if (c.faults !== undefined) server.site.control.setFaults(c.faults);
      server.setScenario(
        guarded(server, (ctx) => {
          if (ctx.request.list?.collection !== 'posts') return undefined;
          seen += 1;
          return c.answer(seen, ctx, other.url);
        }),
      );
      let result;
      try {
        result = await pullThrough(server, cache, pipeline, { env: credentials });
      } finally {
        server.setScenario(undefined);
        server.site.control.setFaults(undefined);
      }
      // Nothing went to the other origin, credentials least of all.
      expect(other.paths).toEqual([]);
      expect(server.listRequests('posts')).toBeLessThanOrEqual((retries + 1) * listBound(32));
      if (c.code === 0) {
        expect(result.code, result.stderr).toBe(0);
        // Signed in, the cache also holds drafts: every published post must be there.
        const held = cachedIds(cache, 'pl', 'posts');
        for (const id of publishedIds(server, 'pl', 'posts')) expect(held).toContain(id);
        return;
      }
      expect(result.code, result.stderr).toBe(c.code);
      const line = errorLine(result);
      expect(line).toContain(`${server.url}/pl/cms-json/cms/v2/posts`);
      expect(line).toMatch(c.line ?? /./);
      expect(line).not.toContain(server.site.credentials.password);
      if (c.attempts !== undefined) expect(seen).toBe(c.attempts);
      expect(itemsDigest(cache)).toBe(before);
    });
  }
});
