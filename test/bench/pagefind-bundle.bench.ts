/**
 * One search bundle's parts, as an edit indexes it: an empty worker thread's start, Pagefind's
 * start, and one bundle of a cache's posts, through Pagefind's own Node API (one message and
 * one wait at a time) and through `pagefind-service.ts` (one write). Each side's CPU is read
 * apart: this process's from `process.cpuUsage()`, Pagefind's from its `/proc/PID/stat`.
 *   npx tsx test/bench/pagefind-bundle.bench.ts CACHE [docs=625] [rounds=3] [lang=pl]
 * CACHE is a built cache (`cache.sqlite`); the bundle is its first `docs` public posts of
 * `lang`. Each round runs in fresh processes (API, then ours), so neither warms the other, and
 * prints the load, the parts and a digest of the files (the same both ways). Linux only.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(import.meta.url);

if (process.argv[2] === '--round') await round(process.argv[3]!, process.argv[4]!);
else main();

function main(): void {
  const [cache, docs = '625', rounds = '3', lang = 'pl'] = process.argv.slice(2);
  if (!cache) throw new Error('usage: pagefind-bundle.bench.ts CACHE [docs] [rounds] [lang]');
  console.log(`${path.resolve(cache)}: ${docs} ${lang} posts a bundle, ${os.cpus().length} cores`);
  for (let at = 1; at <= Number(rounds); at++) {
    for (const way of ['thread', 'api', 'ours']) {
      const load = os.loadavg()[0]!.toFixed(2);
      const out = execFileSync(
        process.execPath,
        ['--import', 'tsx', HERE, '--round', way, JSON.stringify({ cache, docs, lang })],
        { encoding: 'utf8' },
      );
      console.log(`round ${at} ${way.padEnd(6)} load ${load} | ${out.trim()}`);
    }
  }
}

async function round(way: string, args: string): Promise<void> {
  const { cache, docs, lang } = JSON.parse(args) as { cache: string; docs: string; lang: string };
  const cpu = (): number => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  if (way === 'thread') {
    const { Worker } = await import('node:worker_threads');
    const [c0, t0] = [cpu(), performance.now()];
    const worker = new Worker('', { eval: true });
    await new Promise((resolve) => worker.once('exit', resolve));
    console.log(`empty worker thread: cpu ${ms(cpu() - c0)}, wall ${ms(performance.now() - t0)}`);
    return;
  }
  const shard = await bundleOf(cache, Number(docs), lang);
  const pagefindCpu = (pid: number): number => {
    const fields = execFileSync('cat', [`/proc/${pid}/stat`], { encoding: 'utf8' })
      .split(') ')[1]!
      .split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  };
  const child = (): number => {
    const out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], {
      encoding: 'utf8',
    });
    const line = out.split('\n').find((row) => row.includes('pagefind'));
    return Number(line?.trim().split(/\s+/)[0]);
  };
  // Every module loaded before the clock starts: only the work is timed.
  const { pagefindEnv } = await import('../../src/site/pagefind-env.js');
  const { htmlToText } = await import('../../src/site/html-text.js');
  const { PagefindService } = await import('../../src/site/pagefind-service.js');
  const { buildSearchShard } = await import('../../src/site/search-index.js');
  const pagefind = await import('pagefind');
  const [c0, t0] = [cpu(), performance.now()];
  let files: Map<string, Uint8Array>;
  let pid: number;
  let start: string;
  if (way === 'api') {
    // As a search worker did: Pagefind's Node API, one message and one wait at a time.
    const childProcess = (await import('node:child_process')).default;
    const spawn = childProcess.spawn.bind(childProcess);
    childProcess.spawn = ((command: string, argv: string[], options: object = {}) =>
      spawn(command, argv, {
        ...options,
        env: pagefindEnv(process.env),
      })) as typeof childProcess.spawn;
    const created = await pagefind.createIndex();
    await created.index?.deleteIndex();
    pid = child();
    start = parts(c0, t0, pagefindCpu(pid), cpu(), performance.now());
    const [c1, t1, p1] = [cpu(), performance.now(), pagefindCpu(pid)];
    const { index } = await pagefind.createIndex({ forceLanguage: lang });
    for (let at = 0; at < shard.docs.length; at += 256) {
      await Promise.all(
        shard.docs.slice(at, at + 256).map((doc) =>
          index!.addCustomRecord({
            url: doc.url,
            content: `${doc.title}. ${htmlToText(doc.html)}`,
            language: lang,
            meta: { title: doc.title },
          }),
        ),
      );
    }
    const got = await index!.getFiles();
    await index!.deleteIndex();
    files = new Map(got.files.map((file) => [file.path, file.content]));
    console.log(
      `start ${start} | bundle ${parts(c1, t1, pagefindCpu(pid) - p1, cpu(), performance.now())} | ${digest(files)}`,
    );
    await pagefind.close();
    return;
  }
  const service = new PagefindService();
  const [created] = service.send([{ type: 'NewIndex', config: {} }]);
  const { index_id: indexId } = (await created!) as { index_id?: number };
  await service.send([{ type: 'DeleteIndex', index_id: indexId }])[0];
  pid = child();
  start = parts(c0, t0, pagefindCpu(pid), cpu(), performance.now());
  const [c1, t1, p1] = [cpu(), performance.now(), pagefindCpu(pid)];
  files = await buildSearchShard(shard, lang, service);
  console.log(
    `start ${start} | bundle ${parts(c1, t1, pagefindCpu(pid) - p1, cpu(), performance.now())} | ${digest(files)}`,
  );
  await service.close();
}

function parts(c0: number, t0: number, pagefind: number, c1: number, t1: number): string {
  return `node cpu ${ms(c1 - c0)}, Pagefind cpu ${ms(pagefind)}, wall ${ms(t1 - t0)}`;
}

function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}

/** The files' count and a digest over the files Pagefind's UI loads (the same both ways). */
function digest(files: Map<string, Uint8Array>): string {
  const hash = createHash('sha256');
  const kept = [...files]
    .map(([file, bytes]) => [file.replace(/^pagefind\/s\d+\//, ''), bytes] as const)
    .filter(([file]) => !/^pagefind-(?:component-ui|modular-ui|highlight)\./.test(file))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [file, bytes] of kept) hash.update(file).update(bytes);
  return `${kept.length} files, sha256 ${hash.digest('hex').slice(0, 12)}`;
}

async function bundleOf(cache: string, docs: number, lang: string) {
  const Database = (await import('better-sqlite3')).default;
  const db = new Database(cache, { readonly: true });
  const rows = db
    .prepare(
      `SELECT i.title, t.html, i.link FROM items i JOIN transformed t USING (lang, type, id)
       WHERE i.lang = ? AND i.type = 'posts' AND i.is_public ORDER BY i.id LIMIT ?`,
    )
    .all(lang, docs) as { title: string; html: string; link: string }[];
  db.close();
  const shardDocs = rows.map((row, at) => ({
    key: `post:${at}`,
    url: row.link,
    title: row.title,
    html: row.html,
    digest: '',
  }));
  return { index: 0, dir: 'pagefind/s0', digest: '', docs: shardDocs };
}
