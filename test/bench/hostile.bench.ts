/**
 * Peak memory and time of every protocol case of the hostile suite (test/hostile/): the list,
 * body, fault and walk scenarios run against the hostile server in this process, and each pull
 * (or `verify`, for the walk cases) runs in a fresh child process, so its peak RSS is the
 * client's alone.
 *   npx tsx test/bench/hostile.bench.ts [--only TEXT]
 * `--only` runs the cases whose "family | name" contains TEXT (case-insensitive).
 * Prints one table row per case: exit code, wall time of the child (CLI start included),
 * requests the case's route got (the posts list; the revisions or autosaves list for a walk
 * case), the child's peak RSS and its RSS once loaded.
 * Figures, not assertions: the tests check the outcomes, this shows what they cost.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { credentialEnv } from '../helpers/cli-args.js';
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
import { CASES as WALKS, parentOf } from '../helpers/hostile/protocol-walk-cases.js';

interface Measure {
  readonly code: number;
  readonly peakRssMb: number;
  readonly baseRssMb: number;
}

/** Child mode: one command (`pull`, `verify`) through the CLI, then the figures as one JSON line. */
async function child(argv: string[]): Promise<void> {
  const base = process.resourceUsage();
  const env = JSON.parse(argv[0] ?? '{}') as NodeJS.ProcessEnv;
  const result = await runCliCaptured(argv.slice(1), { env });
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
  /** The command and its flags before `--site ...` (default `pull`). */
  readonly command?: readonly string[];
  /** Requests of the case's route (default: the posts list). */
  readonly requests?: () => number;
}

/** How a family's server and good pull are set up. */
interface FamilySetup {
  /** Environment of every command (credentials). */
  readonly env?: NodeJS.ProcessEnv;
  /** Extra flags of the good pull that makes the warm cache (`--backup`). */
  readonly goodFlags?: readonly string[];
}

/** `--only TEXT`: runs whose "family | name" contains TEXT; undefined runs all. */
const ONLY = ((): string | undefined => {
  const at = process.argv.indexOf('--only');
  return at < 0 ? undefined : process.argv[at + 1]?.toLowerCase();
})();

const selected = (run: Run): boolean =>
  ONLY === undefined || `${run.family} | ${run.name}`.toLowerCase().includes(ONLY);

/** One table row, printed as soon as it is measured (a long run keeps what it measured). */
function print(row: string): void {
  console.log(row);
}

async function family(
  label: string,
  posts: number,
  runs: (server: HostileServer) => Run[],
  setup: (server: HostileServer) => FamilySetup = () => ({}),
): Promise<void> {
  const server = await startHostileServer({ languages: ['pl'], posts });
  const temp = tempCache('cms-mirror-hostile-bench-');
  try {
    const chosen = runs(server).filter(selected);
    if (chosen.length === 0) return;
    const { env = {}, goodFlags = [] } = setup(server);
    const warm = join(temp.dir, 'warm.sqlite');
    const good = pipeline(temp.dir, 'good.yaml', { retries: 1 });
    const first = await runCliCaptured(
      [
        'pull',
        '--site',
        server.url,
        '--lang',
        'pl',
        '--cache',
        warm,
        '--pipeline',
        good,
        ...goodFlags,
      ],
      { env },
    );
    if (first.code !== 0) throw new Error(`${label}: the good pull failed: ${first.stderr}`);
    let n = 0;
    for (const run of chosen) {
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
          [
            ...(run.command ?? ['pull']),
            ...[
              '--site',
              server.url,
              '--lang',
              'pl',
              '--cache',
              cache,
              '--pipeline',
              file,
              '--json',
            ],
          ],
          env,
        );
        const requests = run.requests?.() ?? server.listRequests('posts');
        print(
          `| ${run.family} | ${run.name}, ${run.cache} cache | ${m.code} | ${m.seconds.toFixed(2)} s | ${requests} | ${m.peakRssMb.toFixed(0)} MB | ${m.baseRssMb.toFixed(0)} MB |`,
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
    "| family | case | exit | wall time | list requests of the case's route | client peak RSS | RSS loaded |",
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
  await family('walks', 30, walkRuns, (server) => ({
    env: credentialEnv(server.site),
    goodFlags: ['--backup'],
  }));
}

/** The walk cases: `verify`'s posts listing, or a backup pull after one post was edited. */
function walkRuns(server: HostileServer): Run[] {
  const target = server.site.control.listItems('pl', 'posts')[3]?.id ?? 0;
  return WALKS.map((c): Run => {
    let seen = 0;
    return {
      family: 'walks',
      name: c.name,
      cache: 'warm',
      command: c.walk === 'verify' ? ['verify'] : ['pull', '--backup'],
      requests: () => seen,
      before: () => {
        seen = 0;
        if (c.walk !== 'verify') {
          server.site.control.updateItem('pl', 'posts', target, { title: `Edited: ${c.name}` });
        }
      },
      scenario: (ctx) => {
        const hit =
          c.walk === 'verify'
            ? ctx.request.list?.collection === 'posts' &&
              ctx.url.searchParams.get('per_page') !== '1'
            : parentOf(c.walk, ctx.url.pathname) !== undefined;
        if (!hit || ctx.request.method !== 'GET') return undefined;
        seen += 1;
        if (seen > 400)
          return { status: 410, body: '{"code":"hostile_runaway","message":"runaway","data":{}}' };
        const page = Number(ctx.url.searchParams.get('page') ?? '1');
        return c.answer(page, Number(ctx.url.searchParams.get('per_page') ?? '10'), ctx);
      },
    };
  });
}

if (process.argv[2] === '--child') {
  await child(process.argv.slice(3));
} else {
  await main();
}
