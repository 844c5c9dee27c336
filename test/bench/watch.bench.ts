/**
 * `cms-mirror watch --push`: from saving an edited checkout file to the rebuilt page on disk.
 * The reference site in its own process (`cms-mirror reference --posts N`); the compiled CLI
 * (`node dist/cli/cms-mirror.js`, what users run) pulls and builds `pl` once (`run`), checks it out,
 * then `watch --push` runs as a child process. Each round saves one post's checkout file with
 * a new title and polls (every 5 ms) until the post's page under `output/pl/` shows it; the
 * time from the save to the `pushed:` and `rebuilt` lines of the watch is printed too.
 *   npm run build && npx tsx test/bench/watch.bench.ts [postsPerLanguage=1000] [rounds=5]
 * The figure includes the watch's debounce (80 ms by default since issue 17, 300 ms before:
 * the queue waits that long for the editor's further writes; counted from the file's write,
 * not from chokidar's report of it, since i-watch2) and chokidar's `awaitWriteFinish` (30 ms of
 * stillness; 50 ms before).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startReferenceProcess } from '../../src/cli/reference-process.js';
import { credentialEnv } from '../helpers/cli-args.js';
import { MAIN, runCompiledCli } from './compiled-cli.js';

const POSTS = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 5);

async function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return (await runCompiledCli(args, env)).stdout;
}

/** Checkout files by the item id in their front matter. */
function checkoutFiles(dir: string): Map<number, string> {
  const files = new Map<number, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const id = /^id: (\d+)$/m.exec(fs.readFileSync(file, 'utf8').slice(0, 2000))?.[1];
    if (id !== undefined) files.set(Number(id), file);
  }
  return files;
}

async function until(what: string, check: () => boolean, timeoutMs = 120_000): Promise<number> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return performance.now();
}

function textOf(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" first`);
  const site = await startReferenceProcess(['--posts', String(POSTS)]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-mirror-watch-bench-'));
  let watch: ChildProcess | undefined;
  try {
    const pipeline = path.join(dir, 'pipeline.yaml');
    fs.writeFileSync(pipeline, 'http:\n  requestsPerSecond: 0\n');
    const content = path.join(dir, 'content');
    const out = path.join(dir, 'output');
    const common = [...['--pipeline', pipeline, '--lang', 'pl', '--cache', `${dir}/cache.sqlite`]];
    const env = credentialEnv(site);
    await runCli(['run', ...common, '--site', site.url, '--out', out, '--json'], env);
    await runCli(['checkout', ...common, '--dir', content, '--type', 'posts'], env);
    const files = checkoutFiles(content);

    watch = spawn(
      process.execPath,
      [
        // `BENCH_NODE_ARGS` (e.g. `--cpu-prof --cpu-prof-dir=DIR`) for the watch process only.
        ...(process.env['BENCH_NODE_ARGS'] ?? '').split(' ').filter((arg) => arg !== ''),
        ...[MAIN, 'watch', ...common, '--site', site.url, '--dir', content, '--out', out, '--push'],
      ],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    watch.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    watch.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await until('the watch to start', () => {
      if (watch?.exitCode !== null) throw new Error(`watch exited: ${stderr}`);
      return stdout.includes('watching ');
    });

    const listed = await fetch(
      `${site.url}/pl/cms-json/cms/v2/posts?per_page=${ROUNDS}&offset=${Math.floor(POSTS / 3)}&_fields=id,link`,
    );
    const posts = (await listed.json()) as { id: number; link: string }[];
    const rows: { page: number; pushed: number; rebuilt: number }[] = [];
    for (const post of posts) {
      const file = files.get(post.id);
      if (file === undefined) throw new Error(`no checkout file for post ${post.id}`);
      const page = path.join(out, 'pl', new URL(post.link).pathname.replace(/^\/pl\//, ''));
      const title = `Watch bench ${post.id} ${Date.now()}`;
      const before = stdout.length;
      const text = fs.readFileSync(file, 'utf8');
      const next = text.replace(/^title: .*$/m, `title: ${title}`);
      if (next === text) throw new Error(`${file} has no title line`);
      const saved = performance.now();
      fs.writeFileSync(file, next);
      // One poll for the three events, so that each is timed when it happens.
      const seen: { page?: number; pushed?: number; rebuilt?: number } = {};
      await until(`${page} to show the edit and the watch to log it`, () => {
        const now = performance.now();
        const log = stdout.slice(before);
        seen.page ??= textOf(path.join(page, 'index.html')).includes(title) ? now : undefined;
        seen.pushed ??= log.includes('pushed: ') ? now : undefined;
        seen.rebuilt ??= log.includes('rebuilt ') ? now : undefined;
        return Object.values(seen).filter((time) => time !== undefined).length === 3;
      });
      const { page: shown = 0, pushed = 0, rebuilt = 0 } = seen;
      const row = { page: shown - saved, pushed: pushed - saved, rebuilt: rebuilt - saved };
      rows.push(row);
      console.error(
        `post ${post.id}: page ${row.page.toFixed(0)} ms (pushed line ${row.pushed.toFixed(0)} ms, rebuilt line ${row.rebuilt.toFixed(0)} ms)`,
      );
      // Let the watch settle (its rebuild line printed) before the next save.
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const ms = (values: number[]): string => values.map((v) => v.toFixed(0)).join(' / ');
    console.log(
      `\n${POSTS} posts (pl), ${ROUNDS} saves, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}\n`,
    );
    console.log('| figure | each save (ms) | median |');
    console.log('|---|---|---|');
    for (const key of ['page', 'pushed', 'rebuilt'] as const) {
      const values = rows.map((row) => row[key]);
      console.log(
        `| save → ${key === 'page' ? 'page on disk shows it' : `${key} line`} | ${ms(values)} | ${median(values).toFixed(0)} ms |`,
      );
    }
  } finally {
    if (watch && watch.exitCode === null) {
      const exited = new Promise((resolve) => watch?.once('exit', resolve));
      watch.kill('SIGINT');
      await exited;
    }
    await site.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
