/**
 * `restore --as-of` of 1,000 changed items against the embedded reference site (run in this
 * process, so wall times include the server's work; request counts are exact):
 *   npx tsx test/bench/restore.bench.ts
 * 1,100 posts are mirrored with `pull --backup`; then on the site 900 are edited (title,
 * content, slug), 50 trashed and 50 deleted for good; a backup pull; then the restore, and
 * a second restore (which must send no writes).
 */
import os from 'node:os';
import { startReferenceSite } from '../../src/reference/index.js';
import { pull, resolveSettings, restore } from '../../src/index.js';
import { credentialEnv } from '../helpers/cli-args.js';
import { tempCache } from '../helpers/temp-cache.js';

const POSTS = 1_100;
const EDITED = 900;
const TRASHED = 50;
const DELETED = 50;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function main(): Promise<void> {
  const site = await startReferenceSite({ posts: POSTS, pages: 0, media: 0, languages: ['pl'] });
  const temp = tempCache('cms-mirror-bench-restore-');
  try {
    const settings = resolveSettings(
      { site: site.url, lang: 'pl', cache: temp.file, backup: true },
      credentialEnv(site),
      temp.dir,
    );
    settings.http.requestsPerSecond = 0;
    await pull({ settings });
    await sleep(1100);
    const asOf = new Date().toISOString();
    await sleep(1100);
    const ids = site.control
      .listItems('pl', 'posts')
      .filter((item) => item.status === 'publish')
      .map((item) => item.id)
      .slice(0, EDITED + TRASHED + DELETED);
    ids.slice(0, EDITED).forEach((id) =>
      site.control.updateItem('pl', 'posts', id, {
        title: `Bulk ${id}`,
        content: `<p>Bulk ${id}</p>`,
        slug: `bulk-${id}`,
      }),
    );
    ids
      .slice(EDITED, EDITED + TRASHED)
      .forEach((id) => site.control.updateItem('pl', 'posts', id, { status: 'trash' }));
    ids.slice(EDITED + TRASHED).forEach((id) => site.control.deleteItem('pl', 'posts', id));
    await pull({ settings });

    console.log(
      `restore --as-of of ${ids.length} changed posts (${EDITED} edited, ${TRASHED} trashed, ${DELETED} deleted for good); load ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' / ')}`,
    );
    for (const label of ['restore', 'second restore']) {
      const before = site.requests.length;
      const started = performance.now();
      const report = await restore({ settings, asOf });
      const seconds = (performance.now() - started) / 1000;
      const served = site.requests.slice(before);
      const writes = served.filter((r) => r.method !== 'GET' && r.method !== 'HEAD').length;
      const done = report.languages['pl']!.done.length;
      console.log(
        `${label}: ${seconds.toFixed(2)} s wall, ${served.length} requests (${writes} write calls, ${report.counts.batches} batch calls, ${report.counts.writes} items written), ${done} item actions, ${report.conflicts} conflicts, ${report.failed} failed`,
      );
    }
    console.log(
      `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load after ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' / ')}`,
    );
  } finally {
    await site.close();
    temp.cleanup();
  }
}

await main();
