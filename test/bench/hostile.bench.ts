/**
 * Peak memory and time of every protocol case of the hostile suite (test/hostile/): the list,
 * body and fault scenarios run against the hostile server in this process, and each pull runs
 * in a fresh child process, so its peak RSS is the client's alone.
 *   npx tsx test/bench/hostile.bench.ts
 * Prints one table row per case: exit code, wall time of the child (CLI start included),
 * list requests the posts route got, the child's peak RSS and its RSS once loaded.
 * Figures, not assertions: the tests check the outcomes, this shows what they cost.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCliCaptured } from '../helpers/run-cli.js';
import { tempCache } from '../helpers/temp-cache.js';
import { CASES as FAULTS } from '../helpers/hostile/faults-cases.js';
import {
  startHostileServer,
  type HostileServer,
  type Scenario,
} from '../helpers/hostile/hostile-server.js';
import { CASES as BODIES } from '../helpers/hostile/protocol-body-cases.js';
import { BULK_SECOND, CASES as CRAWLS } from '../helpers/hostile/protocol-crawl-cases.js';

interface Measure {
  readonly code: number;
  readonly peakRssMb: number;
  readonly baseRssMb: number;
}

/** Child mode: one pull through the CLI, then the figures as one JSON line. */
async function child(argv: string[]): Promise<void> {
  const base = process.resourceUsage();
  const env = JSON.parse(argv[0] ?? '{}') as NodeJS.ProcessEnv;
  const result = await runCliCaptured(['pull', ...argv.slice(1)], { env });
  const usage = process.resourceUsage();
  const measure: Measure = {
    code: result.code,
    peakRssMb: usage.maxRSS / 1024,
    baseRssMb: base.maxRSS / 1024,
  };
  process.stdout.write(`${JSON.stringify(measure)}\n`);
}

function runChild(args: string[], env: NodeJS.ProcessEnv): Promise<Measure & { seconds: number }> {
  const self = fileURLToPath(import.meta.url);
  const started = performance.now();
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', self, '--child', JSON.stringify(env), ...args],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  let out = '';
  proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => {
      const last = out.trim().split('\n').at(-1);
      if (code !== 0 || last === undefined) reject(new Error(`bench child exited ${code}`));
      else
        resolve({
          ...(JSON.parse(last) as Measure),
          seconds: (performance.now() - started) / 1000,
        });
    });
  });
}

function copyCache(from: string, to: string): void {
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(from + suffix)) copyFileSync(from + suffix, to + suffix);
  }
}

function pipeline(dir: string, name: string, http: Record<string, number>): string {
  const file = join(dir, name);
  const lines = Object.entries({ requestsPerSecond: 0, ...http }).map(([k, v]) => `  ${k}: ${v}`);
  writeFileSync(file, `http:\n${lines.join('\n')}\n`);
  return file;
}

/** Stops a case that would not stop on its own (the tests fail on it; here it is a figure). */
function guarded(server: HostileServer, scenario: Scenario): Scenario {
  return (ctx) =>
    server.requests.filter((r) => r.list !== undefined).length > 400
      ? { status: 410, body: '{"code":"hostile_runaway","message":"runaway","data":{}}' }
      : scenario(ctx);
}

interface Run {
  readonly family: string;
  readonly name: string;
  readonly scenario: Scenario;
  readonly cache: 'empty' | 'warm';
  readonly http?: Record<string, number> | undefined;
  readonly before?: () => void;
  readonly after?: () => void;
}

/** One table row, printed as soon as it is measured (a long run keeps what it measured). */
function print(row: string): void {
  console.log(row);
}

async function family(
  label: string,
  posts: number,
  runs: (server: HostileServer) => Run[],
): Promise<void> {
  const server = await startHostileServer({ languages: ['pl'], posts });
  const temp = tempCache('cms-mirror-hostile-bench-');
  try {
    const warm = join(temp.dir, 'warm.sqlite');
    const good = pipeline(temp.dir, 'good.yaml', { retries: 1 });
    const first = await runCliCaptured([
      'pull',
      '--site',
      server.url,
      '--lang',
      'pl',
      '--cache',
      warm,
      '--pipeline',
      good,
    ]);
    if (first.code !== 0) throw new Error(`${label}: the good pull failed: ${first.stderr}`);
    let n = 0;
    for (const run of runs(server)) {
      n += 1;
      const cache = join(temp.dir, `case-${n}.sqlite`);
      if (run.cache === 'warm') copyCache(warm, cache);
      const file = pipeline(temp.dir, `p-${n}.yaml`, {
        retries: 2,
        timeoutMs: 10_000,
        ...run.http,
      });
      run.before?.();
      server.clearLog();
      server.setScenario(guarded(server, run.scenario));
      try {
        const m = await runChild(
          ['--site', server.url, '--lang', 'pl', '--cache', cache, '--pipeline', file, '--json'],
          {},
        );
        print(
          `| ${run.family} | ${run.name}, ${run.cache} cache | ${m.code} | ${m.seconds.toFixed(2)} s | ${server.listRequests('posts')} | ${m.peakRssMb.toFixed(0)} MB | ${m.baseRssMb.toFixed(0)} MB |`,
        );
      } finally {
        server.setScenario(undefined);
        run.after?.();
      }
    }
  } finally {
    await server.close();
    temp.cleanup();
  }
}

async function main(): Promise<void> {
  console.log(
    '| family | case | exit | wall time | posts list requests | client peak RSS | RSS loaded |',
  );
  console.log('|---|---|---|---|---|---|---|');
  await family('bodies', 30, () =>
    BODIES.map((c): Run => ({
      family: 'bodies',
      name: c.name,
      cache: 'warm',
      http: c.http,
      scenario: async (ctx) => {
        const hit =
          (c.target ?? 'posts') === 'posts'
            ? ctx.request.list?.collection === 'posts'
            : ctx.url.pathname === '/pl/cms-json/';
        if (!hit) return undefined;
        const up = await ctx.forward();
        return c.answer(up.body, up);
      },
    })),
  );
  await family('faults', 30, (server) =>
    FAULTS.map((c): Run => {
      let seen = 0;
      return {
        family: 'faults',
        name: c.name,
        cache: 'warm',
        http: c.http,
        before: () => {
          seen = 0;
          if (c.faults !== undefined) server.site.control.setFaults(c.faults);
        },
        after: () => server.site.control.setFaults(undefined),
        scenario: (ctx) => {
          if (ctx.request.list?.collection !== 'posts') return undefined;
          seen += 1;
          return c.answer(seen, ctx, 'http://127.0.0.1:9');
        },
      };
    }),
  );
  await family('lists', 150, (server) => {
    const original = new Map(
      server.site.control.listItems('pl', 'posts').map((item) => [item.id, item.modifiedGmt]),
    );
    const restore = (): void => {
      for (const [id, epoch] of original) {
        server.site.control.setModified('pl', 'posts', [id], new Date(epoch * 1000));
      }
    };
    return CRAWLS.flatMap((c) =>
      (['empty', 'warm'] as const).map((cache): Run => ({
        family: 'lists',
        name: c.name,
        cache,
        scenario: (ctx) => (ctx.request.list?.collection === 'posts' ? c.posts(ctx) : undefined),
        before: () => {
          if (c.shape === 'one-second') {
            server.site.control.setModified('pl', 'posts', [...original.keys()], BULK_SECOND);
          }
        },
        after: restore,
      })),
    );
  });
}

if (process.argv[2] === '--child') {
  await child(process.argv.slice(3));
} else {
  await main();
}
