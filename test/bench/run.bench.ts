/**
 * `cms-mirror run` (pull + build) end to end, as a scheduled job runs it: the reference site
 * in its own process (`cms-mirror reference --posts N`), each `run --json` in a fresh child
 * process against it, with credentials (edit context). Cases: a full run into an empty cache
 * and output, a no-op run of the unchanged site, and a run after one post's title was edited
 * through the API.
 *   npm run build && npx tsx test/bench/run.bench.ts [postsPerLanguage=10000]
 * Each run is the compiled CLI (`node dist/cli/cms-mirror.js`, what users run), so build first.
 * Wall times are the child's whole life, including Node start-up (about 0.5 s here); the
 * `pull`/`build` columns are the run's own figures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startReferenceProcess } from '../../src/cli/reference-process.js';
import { credentialEnv } from '../helpers/cli-args.js';
import { editPostTitle } from './post-edit.js';
import { MAIN, runCompiledCli } from './compiled-cli.js';

const POSTS = Number(process.argv[2] ?? 10_000);
const LANGS = ['pl', 'es'];

interface RunJson {
  pull: { total: { requests: number; created: number; updated: number; seconds: number } };
  build: {
    languages: Record<
      string,
      {
        written: number;
        removed: number;
        skipped: boolean;
        pages: number;
        phases?: Record<string, number>;
      }
    >;
    total: {
      written: number;
      unchanged: number;
      removed: number;
      pages: number;
      seconds: number;
      /** The whole build's wall time (the pages/s figure is computed from it). */
      wallSeconds: number;
    };
  };
}

async function runChild(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ wall: number; json: RunJson }> {
  const { wall, stdout } = await runCompiledCli(['run', ...args, '--json'], env);
  return { wall, json: JSON.parse(stdout) as RunJson };
}

async function main(): Promise<void> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" first`);
  const site = await startReferenceProcess(['--posts', String(POSTS)]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-mirror-run-bench-'));
  try {
    const pipeline = path.join(dir, 'pipeline.yaml');
    fs.writeFileSync(pipeline, 'http:\n  requestsPerSecond: 0\n');
    const args = [
      ...['--pipeline', pipeline, '--site', site.url, '--lang', LANGS.join(',')],
      ...['--cache', path.join(dir, 'cache.sqlite'), '--out', path.join(dir, 'output')],
    ];
    const env = credentialEnv(site);

    const rows: string[] = [];
    const row = (name: string, result: { wall: number; json: RunJson }, note = ''): void => {
      const { pull, build } = result.json;
      const line = `| ${name} | ${result.wall.toFixed(2)} s | ${pull.total.seconds.toFixed(2)} s, ${pull.total.requests} requests, ${pull.total.created + pull.total.updated} items | ${build.total.wallSeconds.toFixed(2)} s | ${build.total.written} written, ${build.total.unchanged} unchanged, ${build.total.removed} removed | ${note} |`;
      rows.push(line);
      console.error(line);
    };

    const full = await runChild(args, env);
    row(
      'full run, empty cache and output',
      full,
      `${full.json.build.total.pages} pages (${Math.round(full.json.build.total.pages / full.json.build.total.wallSeconds)} pages/s over the build's wall time)`,
    );
    for (const lang of LANGS) {
      console.error(
        `  ${lang} phases (s): ${JSON.stringify(full.json.build.languages[lang]?.phases)}`,
      );
    }
    const noop = await runChild(args, env);
    row(
      'no-op run, site unchanged',
      noop,
      LANGS.map(
        (lang) => `${lang} ${noop.json.build.languages[lang]?.skipped ? 'skipped' : 'built'}`,
      ).join(', '),
    );

    // One post in the middle of the site, its title changed through the API.
    const listed = await fetch(
      `${site.url}/pl/cms-json/cms/v2/posts?per_page=1&offset=${Math.floor(POSTS / 3)}&_fields=id`,
    );
    const [post] = (await listed.json()) as { id: number }[];
    if (!post) throw new Error('no post to edit');
    await editPostTitle(site, post.id);
    const one = await runChild(args, env);
    row(
      'run after one edited post title',
      one,
      `pl written ${one.json.build.languages['pl']?.written}, es ${one.json.build.languages['es']?.skipped ? 'skipped' : 'built'}`,
    );

    const quiet = await runChild(args, env);
    row(
      'no-op run after that',
      quiet,
      LANGS.map(
        (lang) => `${lang} ${quiet.json.build.languages[lang]?.skipped ? 'skipped' : 'built'}`,
      ).join(', '),
    );

    console.log(
      `\n${POSTS} posts per language × ${LANGS.length}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}\n`,
    );
    console.log('| case | wall time (child process) | pull | build | files | notes |');
    console.log('|---|---|---|---|---|---|');
    for (const line of rows) console.log(line);
  } finally {
    await site.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
