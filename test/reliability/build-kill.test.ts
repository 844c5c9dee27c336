/**
 * A real `cms-mirror build` process (the compiled CLI) SIGKILLed while it replaces the output
 * (issue 11): a new theme makes every page change. What the build promises, per language:
 * killed before its commit point, the served folder (`out/pl`, `out/es`) is exactly the
 * previous build, byte for byte and file for file; killed after it, the next build first
 * finishes the switch, and what it leaves is exactly what a full build of the same cache and
 * theme writes. No staging, journal or temporary file survives the next build, and nothing is
 * written outside `out/{lang}/` and the build's own `out/.cms-mirror/`.
 *
 * The moments are chosen from a trace of a rehearsal on a copy (the build's trace hook:
 * `CMS_MIRROR_BUILD_TRACE`), and the child is paused at the chosen step
 * (`CMS_MIRROR_BUILD_PAUSE`) before it is killed: where each kill lands does not depend on
 * the machine's load, and the test checks it landed there.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotFiles, startMirror, type Mirror } from '../helpers/e2e-site.js';
import { cliArgs } from '../helpers/reliability-process.js';
import { runCliCaptured } from '../helpers/run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const LANGS = ['pl', 'es'] as const;
/** How long a child may take to reach its pause (a loaded machine renders slowly). */
const REACH_MS = 120_000;

type Site = Record<(typeof LANGS)[number], Map<string, Buffer>>;

/** Every file of each language's folder with its bytes (relative, forward slashes). */
function siteOf(out: string): Site {
  const bytes = (lang: string): Map<string, Buffer> =>
    new Map([...snapshotFiles(path.join(out, lang))].map(([file, state]) => [file, state.bytes]));
  return { pl: bytes('pl'), es: bytes('es') };
}

/** The files that differ between two folders (missing on either side, or other bytes). */
function differences(a: Map<string, Buffer>, b: Map<string, Buffer>): string[] {
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names].filter((file) => !a.get(file)?.equals(b.get(file) ?? Buffer.alloc(0))).sort();
}

describe('reliability: a build process killed while it replaces the output', () => {
  let mirror: Mirror;
  let theme: string;
  let traces: string;
  beforeAll(async () => {
    mirror = await startMirror({ reference: { posts: 12, pages: 3, media: 3 } });
    await mirror.run();
    // The built-in theme with one more line in every page: the next build rewrites them all.
    theme = path.join(mirror.temp.dir, 'theme');
    fs.cpSync(path.join(ROOT, 'templates'), theme, { recursive: true });
    const base = path.join(theme, '_includes', 'layouts', 'base.njk');
    const text = fs.readFileSync(base, 'utf8');
    fs.writeFileSync(base, text.replace('</footer>', '<p>Nowy motyw</p>\n</footer>'));
    traces = path.join(mirror.temp.dir, 'traces');
    fs.mkdirSync(traces);
  }, 120_000);
  afterAll(async () => {
    await mirror?.close();
  });

  function buildArgv(out: string, cache: string, templates: string): string[] {
    return [
      'build',
      ...['--pipeline', path.join(mirror.temp.dir, 'pipeline.yaml')],
      ...['--lang', 'pl,es', '--cache', cache, '--out', out],
      ...['--templates', templates, '--json'],
    ];
  }

  async function build(out: string, cache: string, templates: string): Promise<void> {
    const run = await runCliCaptured(buildArgv(out, cache, templates), {
      env: mirror.env,
      cwd: mirror.temp.dir,
    });
    expect(run.code, run.stderr).toBe(0);
  }

  /** A copy of the cache (with its write-ahead log), so that a build there leaves ours alone. */
  function copyCache(name: string): string {
    const copy = path.join(mirror.temp.dir, `${name}.sqlite`);
    fs.copyFileSync(mirror.cacheFile, copy);
    if (fs.existsSync(`${mirror.cacheFile}-wal`))
      fs.copyFileSync(`${mirror.cacheFile}-wal`, `${copy}-wal`);
    return copy;
  }

  let runs = 0;
  /**
   * Runs the build in a child with its trace in a file of its own; with `pauseAt`, SIGKILLs it
   * once the trace shows that it stopped there. Returns the trace's lines.
   */
  async function tracedBuild(
    out: string,
    cache: string,
    pauseAt?: { step: string; nth: number },
  ): Promise<{ lines: string[]; signal: NodeJS.Signals | null; code: number | null }> {
    const trace = path.join(traces, `run-${++runs}.trace`);
    const child = spawn(process.execPath, [...cliArgs(), ...buildArgv(out, cache, theme)], {
      cwd: mirror.temp.dir,
      env: {
        ...process.env,
        ...mirror.env,
        NO_COLOR: '1',
        CMS_MIRROR_BUILD_TRACE: trace,
        ...(pauseAt ? { CMS_MIRROR_BUILD_PAUSE: `${pauseAt.step}#${pauseAt.nth}` } : {}),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lines = (): string[] =>
      fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8').split('\n').filter(Boolean) : [];
    const reached = (): boolean =>
      pauseAt !== undefined &&
      lines().filter((line) => line.startsWith(pauseAt.step)).length === pauseAt.nth;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
      (resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code, signal) => resolve({ code, signal }));
      },
    );
    let done = false;
    void exited.then(() => (done = true));
    if (pauseAt) {
      // Bounded: the child either reaches its pause (and waits there for a minute) or ends.
      const deadline = Date.now() + REACH_MS;
      while (!done && !reached() && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 5));
      child.kill('SIGKILL');
    }
    const { code, signal } = await exited;
    if (!pauseAt) expect(code, `${stderr}\n${lines().slice(-5).join('\n')}`).toBe(0);
    return { lines: lines(), code, signal };
  }

  /** Kills a build of `mirror.outDir` at the chosen step and checks that it landed there. */
  async function killAt(step: string, nth: number): Promise<string[]> {
    const killed = await tracedBuild(mirror.outDir, mirror.cacheFile, { step, nth });
    expect(killed.signal, `killed at ${step}#${nth}`).toBe('SIGKILL');
    const last = killed.lines.at(-1) ?? '';
    expect(last.startsWith(step), `the last step before the kill: ${last}`).toBe(true);
    expect(killed.lines.filter((line) => line.startsWith(step))).toHaveLength(nth);
    return killed.lines;
  }

  /** What the state directory holds for the languages: leftovers of a killed build or not. */
  function stateEntries(): string[] {
    const dir = path.join(mirror.outDir, '.cms-mirror');
    return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  }

  /** Nothing but the language folders and the build's state directory is under `--out`. */
  function expectOnlyOurs(): void {
    expect(fs.readdirSync(mirror.outDir).sort()).toEqual(['.cms-mirror', 'es', 'pl']);
  }

  it('leaves the previous site until its commit point, and a re-run completes it', async () => {
    const before = siteOf(mirror.outDir);
    const outside = [...snapshotFiles(mirror.temp.dir).keys()].filter(
      (file) => !file.startsWith('output/') && !file.startsWith('cache'),
    );
    // What the new theme makes: a full build from a copy of the cache into a folder of its own.
    const fullOut = path.join(mirror.temp.dir, 'full');
    await build(fullOut, copyCache('full'), theme);
    const after = siteOf(fullOut);
    for (const lang of LANGS)
      expect(differences(before[lang], after[lang]).length, lang).toBeGreaterThan(5);

    // The rehearsal: the same build on copies of the cache and of the output, traced.
    const rehearsalOut = path.join(mirror.temp.dir, 'rehearsal');
    fs.cpSync(mirror.outDir, rehearsalOut, { recursive: true });
    const rehearsal = await tracedBuild(rehearsalOut, copyCache('rehearsal'));
    const count = (step: string): number =>
      rehearsal.lines.filter((line) => line.startsWith(step)).length;
    const middle = (step: string): number => Math.max(1, Math.floor(count(step) / 2));
    // Languages are built one after the other: `first`, then `second`.
    const order = [...new Set(rehearsal.lines.map((line) => /^stage (\S+)/.exec(line)?.[1]))];
    const [first, second] = order.filter(Boolean) as [
      (typeof LANGS)[number],
      (typeof LANGS)[number],
    ];
    expect([first, second].sort()).toEqual([...LANGS].sort());
    for (const lang of LANGS) {
      for (const step of ['stage', 'switch'])
        expect(count(`${step} ${lang}`), `${step} ${lang}`).toBeGreaterThan(5);
      expect(count(`commit ${lang}`)).toBe(1);
    }
    const killMid = (step: string): Promise<string[]> => killAt(step, middle(step));
    const expectServed = (lang: (typeof LANGS)[number], site: Site): void =>
      expect(differences(siteOf(mirror.outDir)[lang], site[lang]), lang).toEqual([]);

    // 1. Killed half-way through staging the first language: the previous site, exactly.
    await killMid(`stage ${first}`);
    expect(stateEntries()).toContain(`${first}.stage`);
    expect(stateEntries()).not.toContain(`${first}.journal`);
    for (const lang of LANGS) expectServed(lang, before);

    // 2. Killed right after its commit point: still the previous site, the journal written.
    await killAt(`commit ${first}`, 1);
    expect(stateEntries()).toContain(`${first}.journal`);
    for (const lang of LANGS) expectServed(lang, before);

    // 3. Killed half-way through its switch (the previous run's is finished first): a mix
    //    while it stopped, whose journal is rolled forward by the next build, even one with
    //    the previous theme, which must then leave exactly the previous site.
    await killMid(`switch ${first}`);
    expect(stateEntries()).toContain(`${first}.journal`);
    const mixed = differences(siteOf(mirror.outDir)[first], before[first]);
    expect(mixed.length, 'pages already switched').toBeGreaterThan(0);
    expect(mixed.length, 'pages still to switch').toBeLessThan(count(`switch ${first}`));
    await build(mirror.outDir, mirror.cacheFile, path.join(ROOT, 'templates'));
    for (const lang of LANGS) expectServed(lang, before);
    expect(stateEntries()).toEqual(['es.stamp', 'pl.stamp']);

    // 4. Killed half-way through staging the second, the first switched: new, then previous.
    await killMid(`stage ${second}`);
    expectServed(first, after);
    expectServed(second, before);

    // 5. Killed half-way through the second's switch: the next build finishes it, equal to a
    //    full build.
    await killMid(`switch ${second}`);
    expect(stateEntries()).toContain(`${second}.journal`);
    expect(differences(siteOf(mirror.outDir)[second], before[second]).length).toBeGreaterThan(0);
    await build(mirror.outDir, mirror.cacheFile, theme);
    const now = siteOf(mirror.outDir);
    for (const lang of LANGS) expectServed(lang, after);

    // No leftover of any kill, and nothing written outside the output's own places.
    expect(stateEntries()).toEqual(['es.stamp', 'pl.stamp']);
    expectOnlyOurs();
    for (const lang of LANGS)
      expect(
        [...now[lang].keys()].filter((file) => file.endsWith('.tmp')),
        lang,
      ).toEqual([]);
    const outsideNow = [...snapshotFiles(mirror.temp.dir).keys()].filter(
      (file) =>
        !file.startsWith('output/') &&
        !file.startsWith('cache') &&
        !/^(full|rehearsal|traces)(\/|\.sqlite)/.test(file),
    );
    expect(outsideNow.sort()).toEqual(outside.sort());
  }, 600_000);
});
