/**
 * Pull benchmarks. The reference site runs in its own process (the `reference` command) and
 * each measured pull runs in a fresh child process, so RSS and CPU figures are the client's
 * alone and peaks do not carry over from one case to the next.
 *   npx tsx test/bench/pull.bench.ts
 * Client pacing is off (`requestsPerSecond: 0`); with the default 20 requests/second the
 * wall time of a large pull is bounded by its request count instead.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { resolveSettings } from '../../src/config/settings.js';
import { pull } from '../../src/sync/index.js';
import { tempCache } from '../helpers/temp-cache.js';
import { credentialEnv } from '../helpers/cli-args.js';
import { startReferenceProcess, type ReferenceProcess } from '../../src/cli/reference-process.js';

interface Measure {
  seconds: number;
  requests: number;
  created: number;
  unchanged: number;
  peakRssMb: number;
  cpuSeconds: number;
  /** RSS and CPU of the child once its modules are loaded (tsx compiles them), before the pull. */
  baseRssMb: number;
  baseCpuSeconds: number;
}

/** Child mode: one pull, then the figures as one JSON line. */
async function child(site: string, lang: string, cache: string): Promise<void> {
  const settings = resolveSettings({ site, lang, cache }, process.env);
  settings.http = { ...settings.http, requestsPerSecond: 0 };
  const base = process.resourceUsage();
  const started = performance.now();
  const summary = await pull(settings);
  const usage = process.resourceUsage();
  const measure: Measure = {
    seconds: (performance.now() - started) / 1000,
    requests: summary.total.requests,
    created: summary.total.created,
    unchanged: summary.total.unchanged,
    peakRssMb: usage.maxRSS / 1024,
    cpuSeconds:
      (usage.userCPUTime + usage.systemCPUTime - base.userCPUTime - base.systemCPUTime) / 1e6,
    baseRssMb: base.maxRSS / 1024,
    baseCpuSeconds: (base.userCPUTime + base.systemCPUTime) / 1e6,
  };
  process.stdout.write(`${JSON.stringify(measure)}\n`);
}

function runChild(site: ReferenceProcess, lang: string, cache: string): Promise<Measure> {
  const self = fileURLToPath(import.meta.url);
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', self, '--child', site.url, lang, cache],
    {
      env: {
        ...process.env,
        ...credentialEnv(site),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => {
      if (code !== 0) reject(new Error(`bench child exited ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Measure);
    });
  });
}

function line(name: string, m: Measure): string {
  return `| ${name} | ${m.seconds.toFixed(2)} s | ${m.requests} | ${m.created} created, ${m.unchanged} unchanged | ${m.peakRssMb.toFixed(0)} MB (${m.baseRssMb.toFixed(0)} MB loaded) | ${m.cpuSeconds.toFixed(2)} s |`;
}

async function main(): Promise<void> {
  const rows: string[] = [];
  const temp = tempCache('cms-mirror-bench-');
  let site = await startReferenceProcess(['--posts', '10000']);
  try {
    const cache = `${temp.dir}/two.sqlite`;
    rows.push(
      line(
        'full pull, 10,000 posts × 2 languages (edit context)',
        await runChild(site, 'pl,es', cache),
      ),
    );
    rows.push(line('no-op re-pull of the same', await runChild(site, 'pl,es', cache)));
  } finally {
    await site.stop();
  }
  site = await startReferenceProcess(['--posts', '100000']);
  try {
    const cache = `${temp.dir}/big.sqlite`;
    rows.push(
      line(
        'full pull, 100,000 posts, 1 language (edit context)',
        await runChild(site, 'pl', cache),
      ),
    );
  } finally {
    await site.stop();
    temp.cleanup();
  }
  console.log('| case | wall time | requests | items | client peak RSS | client CPU (pull only) |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await child(args[1] ?? '', args[2] ?? '', args[3] ?? '');
} else {
  await main();
}
