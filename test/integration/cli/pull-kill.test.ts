import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { startReference, type ReferenceSite } from '../../helpers/reference.js';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';
import { expectItemsEqual, expectMediaFiles, expectRevisionsEqual } from '../sync/mirror-check.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));

type Entry = ReferenceSite['requests'][number];

/**
 * When a running `pull --backup` is killed with SIGKILL, judged on the requests the reference
 * served during that run. With 150 posts per language a full pull makes ~720 requests: index
 * and credential check, crawl pages (2 per language for posts), media downloads, autosaves
 * and revisions, oEmbed proxies. Each moment is in a different phase.
 */
const KILLS: { readonly phase: string; readonly when: (run: readonly Entry[]) => boolean }[] = [
  { phase: 'before the crawl', when: (run) => run.length >= 4 },
  {
    phase: 'between two crawl pages',
    when: (run) =>
      run.some(
        (r) =>
          r.path === '/cms/v2/posts' &&
          r.query['modified_after'] !== undefined &&
          r.query['orderby'] === 'modified',
      ),
  },
  {
    phase: 'downloading media',
    when: (run) => run.filter((r) => r.path.includes('/cms-content/uploads/')).length >= 5,
  },
  {
    phase: 'fetching revisions',
    when: (run) => run.filter((r) => r.path.endsWith('/revisions')).length >= 30,
  },
  { phase: 'resolving embeds', when: (run) => run.some((r) => r.path.startsWith('/oembed/')) },
];

describe('pull killed with SIGKILL', () => {
  let site: ReferenceSite;
  let temp: TempCache;
  beforeEach(async () => {
    site = await startReference({ posts: 150 });
    temp = tempCache();
  });
  afterEach(async () => {
    await site.close();
    temp.cleanup();
  });

  function runPull(
    kill: ((run: readonly Entry[]) => boolean) | undefined,
  ): Promise<{ code: number | null; signal: string | null; stdout: string }> {
    const start = site.requests.length;
    const pipeline = join(temp.dir, 'pipeline.yaml');
    writeFileSync(pipeline, 'http:\n  requestsPerSecond: 0\n');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        MAIN,
        'pull',
        '--pipeline',
        pipeline,
        '--site',
        site.url,
        '--lang',
        'pl,es',
        '--cache',
        temp.file,
        '--backup',
        '--json',
      ],
      {
        env: {
          ...process.env,
          CMS_USER: site.credentials.user,
          CMS_APP_PASSWORD: site.credentials.password,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.resume();
    const timer =
      kill === undefined
        ? undefined
        : setInterval(() => {
            if (kill(site.requests.slice(start))) child.kill('SIGKILL');
          }, 1);
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => {
        if (timer) clearInterval(timer);
        resolve({ code, signal, stdout });
      });
    });
  }

  it('resumes after kills at five different moments and ends equal to the site without duplicates', async () => {
    for (const kill of KILLS) {
      const result = await runPull(kill.when);
      expect(result.signal, `the pull should still be running ${kill.phase}`).toBe('SIGKILL');
    }

    const final = await runPull(undefined);
    expect(final.code).toBe(0);
    const summary = JSON.parse(final.stdout) as { total: { created: number } };
    expect(summary.total.created).toBeLessThan(325); // resumed, not started over

    const store = openStore(temp.file, { readonly: true });
    try {
      expect(store.checkIntegrity()).toEqual([]);
      await expectItemsEqual(store, site, ['pl', 'es'], 'edit');
      await expectRevisionsEqual(store, site, ['pl', 'es']);
      await expectMediaFiles(store, site, ['pl', 'es'], 'edit');
      expect(store.syncQueue.counts()).toEqual([]);
      expect(store.syncState.list().every((state) => state.cursor === null)).toBe(true);
      const runs = store.runs.list({ command: 'pull' });
      expect(runs.filter((run) => run.status === 'running')).toHaveLength(KILLS.length);
      expect(runs[0]?.status).toBe('ok');
    } finally {
      store.close();
    }

    // Idempotent: one more run changes nothing.
    const again = await runPull(undefined);
    expect(JSON.parse(again.stdout).total).toMatchObject({
      created: 0,
      updated: 0,
      deleted: 0,
      revisions: 0,
    });
  });
});
