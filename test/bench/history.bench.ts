/**
 * What the kept history of a backup cache costs (issue 16): cache size and pull time of
 * `pull --backup` with the history (this tree) and without it (the same pull run from another
 * source tree, a checkout of the commit before the history, given as BASE):
 *   git worktree add /tmp/cms-base 9de72d4 && ln -s "$PWD/node_modules" /tmp/cms-base/
 *   npx tsx test/bench/history.bench.ts /tmp/cms-base/src
 * Per tree: a full pull of 10,000 posts (one language), a no-op re-pull, then 1,000 posts
 * edited through the batch route and a pull of those. Each pull runs in a fresh child process;
 * the reference site in its own process. Sizes are of the cache file after the pull (closed,
 * WAL checkpointed) and, with the history, of `item_versions` alone (dbstat).
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type * as SettingsModule from '../../src/config/settings.js';
import type * as SyncModule from '../../src/sync/index.js';
import { tempCache } from '../helpers/temp-cache.js';
import { startReferenceProcess, type ReferenceProcess } from '../../src/cli/reference-process.js';

interface Measure {
  seconds: number;
  requests: number;
  created: number;
  updated: number;
  unchanged: number;
}

/** Child mode: one backup pull with the `pull` of `srcRoot`, then the figures as one JSON line. */
async function child(srcRoot: string, site: string, cache: string): Promise<void> {
  const { resolveSettings } = (await import(
    `${srcRoot}/config/settings.ts`
  )) as typeof SettingsModule;
  const { pull } = (await import(`${srcRoot}/sync/index.ts`)) as typeof SyncModule;
  const settings = resolveSettings({ site, lang: 'pl', cache, backup: true }, process.env);
  settings.http = { ...settings.http, requestsPerSecond: 0 };
  const started = performance.now();
  const summary = await pull(settings);
  const measure: Measure = {
    seconds: (performance.now() - started) / 1000,
    requests: summary.total.requests,
    created: summary.total.created,
    updated: summary.total.updated,
    unchanged: summary.total.unchanged,
  };
  process.stdout.write(`${JSON.stringify(measure)}\n`);
}

function runChild(srcRoot: string, site: ReferenceProcess, cache: string): Promise<Measure> {
  const self = fileURLToPath(import.meta.url);
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', self, '--child', srcRoot, site.url, cache],
    {
      env: {
        ...process.env,
        CMS_USER: site.credentials.user,
        CMS_APP_PASSWORD: site.credentials.password,
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

/** Edits `count` posts (new titles) through `POST batch/v1`, 25 per request. */
async function editPosts(site: ReferenceProcess, count: number, round: string): Promise<void> {
  const auth = `Basic ${Buffer.from(`${site.credentials.user}:${site.credentials.password}`).toString('base64')}`;
  const api = `${site.url}/pl/cms-json`;
  const list = (await (
    await fetch(`${api}/cms/v2/posts?per_page=100&_fields=id&orderby=id&order=asc`, {
      headers: { authorization: auth },
    })
  ).json()) as { id: number }[];
  let ids = list.map((item) => item.id);
  for (let page = 2; ids.length < count; page += 1) {
    const more = (await (
      await fetch(`${api}/cms/v2/posts?per_page=100&page=${page}&_fields=id&orderby=id&order=asc`, {
        headers: { authorization: auth },
      })
    ).json()) as { id: number }[];
    ids = ids.concat(more.map((item) => item.id));
  }
  ids = ids.slice(0, count);
  for (let start = 0; start < ids.length; start += 25) {
    const requests = ids.slice(start, start + 25).map((id) => ({
      method: 'POST',
      path: `/cms/v2/posts/${id}`,
      body: { title: `Edited ${round} ${id}` },
    }));
    const response = await fetch(`${api}/batch/v1`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ validation: 'normal', requests }),
    });
    if (response.status !== 207) throw new Error(`batch answered ${response.status}`);
  }
}

function sizes(cache: string): { fileMb: number; historyMb: number | undefined } {
  const fileMb = statSync(cache).size / 1_048_576;
  const db = new Database(cache, { readonly: true });
  try {
    const has = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'item_versions'").get();
    if (has === undefined) return { fileMb, historyMb: undefined };
    const bytes = db
      .prepare(
        "SELECT sum(pgsize) AS b FROM dbstat WHERE name IN ('item_versions', 'item_versions_item', 'item_versions_seen')",
      )
      .pluck()
      .get() as number;
    return { fileMb, historyMb: bytes / 1_048_576 };
  } finally {
    db.close();
  }
}

async function measureTree(name: string, srcRoot: string, dir: string): Promise<string[]> {
  const rows: string[] = [];
  const site = await startReferenceProcess(['--posts', '10000']);
  try {
    const cache = `${dir}/${name}.sqlite`;
    const row = (label: string, m: Measure): string => {
      const s = sizes(cache);
      const history = s.historyMb === undefined ? '—' : `${s.historyMb.toFixed(1)} MB`;
      return `| ${name} | ${label} | ${m.seconds.toFixed(2)} s | ${m.requests} | ${m.created} created, ${m.updated} updated, ${m.unchanged} unchanged | ${s.fileMb.toFixed(1)} MB | ${history} |`;
    };
    rows.push(row('full backup pull, 10,000 posts', await runChild(srcRoot, site, cache)));
    rows.push(row('no-op re-pull', await runChild(srcRoot, site, cache)));
    await editPosts(site, 1000, name);
    rows.push(row('pull after 1,000 posts edited', await runChild(srcRoot, site, cache)));
  } finally {
    await site.stop();
  }
  return rows;
}

async function main(base: string | undefined): Promise<void> {
  if (base === undefined)
    throw new Error('usage: history.bench.ts BASE_SRC (a src/ without the history)');
  const ours = fileURLToPath(new URL('../../src', import.meta.url));
  const temp = tempCache('cms-mirror-history-bench-');
  const rows: string[] = [];
  try {
    rows.push(...(await measureTree('without history', base, temp.dir)));
    rows.push(...(await measureTree('with history', ours, temp.dir)));
  } finally {
    temp.cleanup();
  }
  console.log('| tree | case | wall time | requests | items | cache file | item_versions |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
}

const args = process.argv.slice(2);
if (args[0] === '--child') await child(args[1] ?? '', args[2] ?? '', args[3] ?? '');
else await main(args[0]);
