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
 * served during that run. With 150 posts and 40 media per language a full pull makes ~800
 * requests: index and credential check, crawl pages (2 per language for posts), media
 * downloads, autosaves and revisions, oEmbed proxies. Each moment is in a different phase.
 */
type Kill = (run: readonly Entry[]) => boolean;

const isRevision = (r: Entry) => r.path.endsWith('/revisions');
const isMedia = (r: Entry) => r.path.includes('/cms-content/uploads/');

/**
 * Revisions and media downloads run side by side, and which of them gets ahead depends on the
 * machine (on one, every revision was fetched before the fifth download; on another, every
 * file before the thirtieth revision). So the first of these two kills lands on whichever
 * starts first, and the second on the other, which by then has barely begun.
 */
const BESIDE: Readonly<Record<'fetching revisions' | 'downloading media', Kill>> = {
  'fetching revisions': (run) => run.filter(isRevision).length >= 10,
  'downloading media': (run) => run.filter(isMedia).length >= 3,
};

const BEFORE: { readonly phase: string; readonly when: Kill }[] = [
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
];
const EMBEDS: Kill = (run) => run.some((r) => r.path.startsWith('/oembed/'));
const KILL_COUNT = BEFORE.length + 3;

describe('pull killed with SIGKILL', () => {
  const fixture = useSiteAndCache({ posts: 150, media: 40 });

  function runPull(
    kill: Kill | undefined,
  ): Promise<{ code: number | null; signal: string | null; stdout: string; atKill: Entry[] }> {
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
    let atKill: Entry[] | undefined;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.resume();
    const timer =
      kill === undefined
        ? undefined
        : setInterval(() => {
            const run = site.requests.slice(start);
            if (atKill === undefined && kill(run)) {
              atKill = run;
              child.kill('SIGKILL');
            }
          }, 1);
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => {
        if (timer) clearInterval(timer);
        resolve({ code, signal, stdout, atKill: atKill ?? [] });
      });
    });
  }

  async function expectKilled(phase: string, when: Kill): Promise<Entry[]> {
    const result = await runPull(when);
    expect(result.signal, `the pull should still be running ${phase}`).toBe('SIGKILL');
    return result.atKill;
  }

  it('resumes after kills at five different moments and ends equal to the site without duplicates', async () => {
    const { site, temp } = fixture;
    for (const kill of BEFORE) await expectKilled(kill.phase, kill.when);
    const [revisions, media] = Object.values(BESIDE);
    const first = await expectKilled('fetching revisions or downloading media', (run) =>
      [revisions, media].some((when) => when!(run)),
    );
    // The phase that had not started when the first kill came; revisions (~600 requests) if both had.
    const [phase, when] = Object.entries(BESIDE).find(([, kill]) => !kill(first)) ?? [
      'fetching revisions',
      revisions!,
    ];
    await expectKilled(phase, when);
    await expectKilled('resolving embeds', EMBEDS);

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
      expect(runs.filter((run) => run.status === 'running')).toHaveLength(KILL_COUNT - 1);
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
