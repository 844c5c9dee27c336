/**
 * A no-op `cms-mirror run` (nothing changed on the site since the last run) of two compiled
 * CLIs, alternated under the same load: where its time goes and what start-up costs.
 *   npm run build && npx tsx test/bench/startup.bench.ts [postsPerLanguage=10000] [rounds=7] [otherMain.js]
 * The reference site runs in its own process; one full run fills a cache and output, which are
 * then copied once per CLI so each no-op runs against its own. Per round and CLI: wall time,
 * CPU (user + sys) and peak RSS of the child (`/usr/bin/time`), medians printed. Once per CLI:
 * how many ES modules the no-op loads (a `--import` hook counts what the loader resolves), and
 * the CPU of `--version` (Node start-up plus the CLI's own modules).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReferenceProcess } from '../../src/cli/reference-process.js';
import { credentialEnv } from '../helpers/cli-args.js';

const POSTS = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 7);
const HERE = fileURLToPath(new URL('../../dist/cli/cms-mirror.js', import.meta.url));
const CLIS = [HERE, ...(process.argv[4] ? [path.resolve(process.argv[4])] : [])];
const TRACE = fileURLToPath(new URL('../helpers/trace-modules.mjs', import.meta.url));

interface Sample {
  wall: number;
  cpu: number;
  rssMb: number;
}

/** Runs `node [execArgv] main.js args` under `/usr/bin/time`; rejects on a non-zero exit. */
function timed(main: string, args: string[], env: NodeJS.ProcessEnv, execArgv: string[] = []) {
  return new Promise<Sample>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      '/usr/bin/time',
      ['-f', 'TIME %U %S %M', process.execPath, ...execArgv, main, ...args],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const wall = (performance.now() - started) / 1000;
      const match = /TIME ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
      if (code !== 0 || !match) reject(new Error(`exit ${code}: ${stderr.slice(-2000)}`));
      else
        resolve({ wall, cpu: Number(match[1]) + Number(match[2]), rssMb: Number(match[3]) / 1024 });
    });
  });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

function loadedModules(main: string, args: string[], env: NodeJS.ProcessEnv): string[] {
  const log = path.join(os.tmpdir(), `cms-mirror-trace-${process.pid}-${Date.now()}.txt`);
  execFileSync(process.execPath, ['--import', TRACE, main, ...args], {
    env: { ...process.env, ...env, CMS_MIRROR_TRACE_MODULES: log },
    stdio: 'ignore',
  });
  const urls = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
  fs.rmSync(log);
  return [...new Set(urls)];
}

async function main(): Promise<void> {
  const site = await startReferenceProcess(['--posts', String(POSTS)]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-mirror-startup-bench-'));
  try {
    const pipeline = path.join(dir, 'pipeline.yaml');
    fs.writeFileSync(pipeline, 'http:\n  requestsPerSecond: 0\n');
    const env = credentialEnv(site);
    const argsIn = (sub: string) => [
      ...['run', '--pipeline', pipeline, '--site', site.url, '--lang', 'pl,es', '--json'],
      ...['--cache', path.join(sub, 'cache.sqlite'), '--out', path.join(sub, 'output')],
    ];
    const seed = path.join(dir, 'seed');
    const full = await timed(CLIS[0]!, argsIn(seed), env);
    console.error(`full run: ${full.wall.toFixed(1)} s`);
    const subs = CLIS.map((_, i) => {
      const sub = path.join(dir, `cli${i}`);
      fs.cpSync(seed, sub, { recursive: true });
      return sub;
    });
    const samples: Sample[][] = CLIS.map(() => []);
    const version: Sample[][] = CLIS.map(() => []);
    const loadBefore = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    for (let round = 0; round <= ROUNDS; round++) {
      for (const [i, cli] of CLIS.entries()) {
        const sample = await timed(cli, argsIn(subs[i]!), env);
        version[i]!.push(await timed(cli, ['--version'], {}));
        if (round === 0) continue; // warm-up: the page cache, the site's first answers
        samples[i]!.push(sample);
        console.error(
          `round ${round} ${cli}: wall ${sample.wall.toFixed(3)} s, CPU ${sample.cpu.toFixed(2)} s, RSS ${sample.rssMb.toFixed(0)} MB`,
        );
      }
    }
    const loadAfter = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(
      `\nno-op run, ${POSTS} posts × pl,es, ${ROUNDS} rounds alternated, ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}, ${new Date().toISOString()}, load before ${loadBefore}, after ${loadAfter}\n`,
    );
    console.log(
      '| CLI | wall (median, min–max) | CPU user+sys (median) | peak RSS | `--version` CPU | ES modules loaded |',
    );
    console.log('|---|---|---|---|---|---|');
    for (const [i, cli] of CLIS.entries()) {
      const walls = samples[i]!.map((s) => s.wall);
      const modules = loadedModules(cli, argsIn(subs[i]!), env);
      const rehype = modules.filter((url) => /\/(unified|rehype-parse|parse5)\//.test(url)).length;
      console.log(
        `| ${cli} | ${median(walls).toFixed(3)} s (${Math.min(...walls).toFixed(3)}–${Math.max(...walls).toFixed(3)}) | ${median(samples[i]!.map((s) => s.cpu)).toFixed(2)} s | ${median(samples[i]!.map((s) => s.rssMb)).toFixed(0)} MB | ${median(version[i]!.map((s) => s.cpu)).toFixed(2)} s | ${modules.length} (${rehype} of unified/rehype-parse/parse5) |`,
      );
    }
  } finally {
    await site.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
