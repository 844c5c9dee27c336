/**
 * Push and migrate benchmarks against the embedded reference site (run in this process, so
 * wall times include the server's work too; request counts are exact).
 *   npx tsx test/bench/push.bench.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startReferenceSite } from '../../src/reference/index.js';
import { resolveSettings } from '../../src/config/settings.js';
import { migrate } from '../../src/migrate/index.js';
import { checkout, runPush } from '../../src/push/index.js';
import { openStore } from '../../src/store/index.js';
import { tempCache } from '../helpers/temp-cache.js';
import { mirrorLanguage } from '../helpers/push-site-fixture.js';
import { credentialEnv } from '../helpers/cli-args.js';

async function benchPush(edits: number): Promise<void> {
  const site = await startReferenceSite({ posts: edits, pages: 0, media: 0, languages: ['pl'] });
  const temp = tempCache('cms-mirror-bench-');
  try {
    const dir = path.join(temp.dir, 'content');
    const store = openStore(temp.file);
    await mirrorLanguage(site, 'pl', store);
    checkout({ store, dir, languages: ['pl'] });
    const rows = store.checkouts
      .list('pl')
      .filter((row) => row.type === 'posts')
      .slice(0, edits);
    store.close();
    for (const row of rows) {
      writeFileSync(
        row.file,
        readFileSync(row.file, 'utf8').replace(/^title: .*$/m, `title: Bench ${row.id}`),
      );
    }
    const settings = resolveSettings(
      { site: site.url, lang: 'pl', cache: temp.file },
      credentialEnv(site),
      temp.dir,
    );
    settings.http.requestsPerSecond = 0;
    const before = site.requests.length;
    const started = performance.now();
    const report = await runPush(settings, { dir });
    const seconds = (performance.now() - started) / 1000;
    const requests = site.requests.slice(before);
    console.log(
      `push ${rows.length} edits: ${seconds.toFixed(2)} s wall, ${report.batches} batch calls, ` +
        `${requests.length} requests in all (${report.updated} updated, ${report.pending} pending)`,
    );
  } finally {
    await site.close();
    temp.cleanup();
  }
}

async function benchMigrate(postCount: number, mediaCount: number): Promise<void> {
  const source = await startReferenceSite({
    posts: postCount,
    pages: 8,
    media: mediaCount,
    languages: ['pl'],
  });
  const target = await startReferenceSite({
    posts: 0,
    pages: 0,
    media: 0,
    languages: ['pl'],
    seed: 'target',
  });
  const temp = tempCache('cms-mirror-bench-');
  try {
    const store = openStore(temp.file);
    await mirrorLanguage(source, 'pl', store, { media: true });
    store.close();
    const started = performance.now();
    const report = await migrate({
      fromCache: temp.file,
      fromLang: 'pl',
      to: target.url,
      toLang: 'pl',
      credentials: target.credentials,
      http: { requestsPerSecond: 0 },
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `migrate ${report.created.posts} posts + ${report.created.pages} pages + ${report.created.media} media: ` +
        `${seconds.toFixed(2)} s wall, ${target.requests.length} requests to the target (${report.batches} batch calls), ` +
        `${report.failed.length} failed`,
    );
    const again = performance.now();
    const second = await migrate({
      fromCache: temp.file,
      fromLang: 'pl',
      to: target.url,
      toLang: 'pl',
      credentials: target.credentials,
      http: { requestsPerSecond: 0 },
    });
    console.log(
      `migrate re-run: ${((performance.now() - again) / 1000).toFixed(2)} s, ${second.requests} requests, created ${JSON.stringify(second.created)}`,
    );
    // A target that already holds a person's items with some of the source's slugs and dates.
    const occupied = await startReferenceSite({
      ...{ posts: 0, pages: 0, media: 0, languages: ['pl'], seed: 'occupied' },
      overlapWith: 'cms-mirror',
    });
    try {
      const { copyFileSync } = await import('node:fs');
      const fresh = `${temp.file}.fresh.sqlite`;
      const clean = openStore(fresh);
      await mirrorLanguage(source, 'pl', clean, { media: true });
      clean.close();
      copyFileSync(fresh, `${fresh}.before`);
      const besideStarted = performance.now();
      const beside = await migrate({
        fromCache: fresh,
        fromLang: 'pl',
        to: occupied.url,
        toLang: 'pl',
        credentials: occupied.credentials,
        http: { requestsPerSecond: 0 },
        onConflict: 'beside',
      });
      console.log(
        `migrate --on-conflict beside into a target with content: ${((performance.now() - besideStarted) / 1000).toFixed(2)} s, ` +
          `${beside.requests} requests (${beside.batches} batch calls), ${beside.conflicts.length} conflicts, ${beside.failed.length} failed`,
      );
      copyFileSync(`${fresh}.before`, fresh);
      const lostStarted = performance.now();
      const lost = await migrate({
        fromCache: fresh,
        fromLang: 'pl',
        to: occupied.url,
        toLang: 'pl',
        credentials: occupied.credentials,
        http: { requestsPerSecond: 0 },
        onConflict: 'beside',
      });
      console.log(
        `migrate again from a cache without its id_map: ${((performance.now() - lostStarted) / 1000).toFixed(2)} s, ` +
          `${lost.requests} requests, recovered ${lost.recovered}, created ${JSON.stringify(lost.created)}`,
      );
    } finally {
      await occupied.close();
    }
  } finally {
    await source.close();
    await target.close();
    temp.cleanup();
  }
}

console.log(
  `${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, node ${process.version}, ${new Date().toISOString()}`,
);
await benchPush(1000);
await benchMigrate(2000, 200);
