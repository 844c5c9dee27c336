import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { credentialEnv, pullArgs } from '../../helpers/cli-args.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import type { ReferenceSite } from '../../helpers/reference.js';
import {
  expectItemsEqual,
  expectMediaFiles,
  expectRevisionsEqual,
} from '../../helpers/mirror-check.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));

type Entry = ReferenceSite['requests'][number];

/**
 * When a running `pull --backup` is killed with SIGKILL, judged on the requests the reference
 * served during that run. With 150 posts and 40 media per language a full pull makes ~720 requests: index
 * and credential check, crawl pages (2 per language for posts), media downloads, autosaves
 * and revisions, oEmbed proxies. Each moment is in a different phase.
 */
const KILLS: { readonly phase: string; readonly when: (run: readonly Entry[]) => boolean }[] = [
  // During the checks up front: the cache is not opened yet, so this run records nothing.
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
    phase: 'fetching revisions',
    when: (run) => run.filter((r) => r.path.endsWith('/revisions')).length >= 30,
  },
  {
    // Media downloads run beside the revisions, so the revisions kill before this one may
    // already have fetched some of them: the site holds 40 per language, so plenty are left.
    phase: 'downloading media',
    when: (run) => run.filter((r) => r.path.includes('/cms-content/uploads/')).length >= 3,
  },
  { phase: 'resolving embeds', when: (run) => run.some((r) => r.path.startsWith('/oembed/')) },
];

describe('pull killed with SIGKILL', () => {
  const fixture = useSiteAndCache({ posts: 150, media: 40 });

  function runPull(
    kill: ((run: readonly Entry[]) => boolean) | undefined,
  ): Promise<{ code: number | null; signal: string | null; stdout: string }> {
    const { site, temp } = fixture;
    const start = site.requests.length;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', MAIN, ...pullArgs(site, temp, { backup: true })],
      {
        env: { ...process.env, ...credentialEnv(site) },
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
    const { site, temp } = fixture;
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
      expectRevisionsEqual(store, site, ['pl', 'es']);
      expectMediaFiles(store, site, ['pl', 'es'], 'edit');
      expect(store.syncQueue.counts()).toEqual([]);
      expect(store.syncState.list().every((state) => state.cursor === null)).toBe(true);
      const runs = store.runs.list({ command: 'pull' });
      // Every kill after the checks up front left its run `running` (the first one came before).
      expect(runs.filter((run) => run.status === 'running')).toHaveLength(KILLS.length - 1);
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
  }, 180_000); // seven child processes of a real pull: over a minute on two busy cores
});
