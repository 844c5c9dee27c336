/**
 * A real `cms-mirror build` process (the compiled CLI) SIGKILLed while it writes the output:
 * a new theme makes every page change, and the child is killed once the first files were
 * replaced and before all of them were. What the build promises: the output is still whole
 * (every file is the previous good build's or the new build's, byte for byte; no half-written
 * file, no temporary file left), and `build` run again completes and leaves exactly what a
 * full build of the same cache and theme writes. The output directory is not swapped as a
 * whole: during and after a killed build it mixes whole old and whole new files.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotFiles, startMirror, type Mirror } from '../helpers/e2e-site.js';
import { cliArgs } from '../helpers/reliability-process.js';
import { runCliCaptured } from '../helpers/run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Every file under `dir` with its bytes (relative, forward slashes). */
function bytesOf(dir: string): Map<string, Buffer> {
  return new Map([...snapshotFiles(dir)].map(([file, state]) => [file, state.bytes]));
}

describe('reliability: a build process killed while it writes', () => {
  let mirror: Mirror;
  let theme: string;
  beforeAll(async () => {
    mirror = await startMirror({ reference: { posts: 12, pages: 3, media: 3 } });
    await mirror.run();
    // The built-in theme with one more line in every page: the next build rewrites them all.
    theme = path.join(mirror.temp.dir, 'theme');
    fs.cpSync(path.join(ROOT, 'templates'), theme, { recursive: true });
    const base = path.join(theme, '_includes', 'layouts', 'base.njk');
    const text = fs.readFileSync(base, 'utf8');
    fs.writeFileSync(base, text.replace('</footer>', '<p>Nowy motyw</p>\n</footer>'));
  }, 120_000);
  afterAll(async () => {
    await mirror?.close();
  });

  function buildArgv(out: string, cache = mirror.cacheFile): string[] {
    return [
      'build',
      ...['--pipeline', path.join(mirror.temp.dir, 'pipeline.yaml')],
      ...['--lang', 'pl,es', '--cache', cache, '--out', out],
      ...['--templates', theme, '--json'],
    ];
  }

  /** Runs the build in a child; SIGKILLs it once some but not all of `changing` were replaced. */
  function killWhileWriting(
    before: ReadonlyMap<string, Buffer>,
    changing: readonly string[],
  ): Promise<{ signal: NodeJS.Signals | null; stderr: string; replaced: number }> {
    const child = spawn(process.execPath, [...cliArgs(), ...buildArgv(mirror.outDir)], {
      cwd: mirror.temp.dir,
      env: { ...process.env, ...mirror.env, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let replaced = 0;
    const timer = setInterval(() => {
      replaced = changing.filter((file) => {
        try {
          return !fs.readFileSync(path.join(mirror.outDir, file)).equals(before.get(file)!);
        } catch {
          return false;
        }
      }).length;
      if (replaced > 0) child.kill('SIGKILL');
    }, 2);
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => {
        clearInterval(timer);
        resolve({ signal, stderr: `exit ${code}, ${replaced} replaced; ${stderr}`, replaced });
      });
    });
  }

  it('leaves only whole files, and a re-run completes equal to a full build', async () => {
    const before = bytesOf(mirror.outDir);
    // What the new theme makes, built in-process from a copy of the cache (the cache records
    // its last build) into a directory of its own.
    const fullOut = path.join(mirror.temp.dir, 'full');
    const copy = path.join(mirror.temp.dir, 'copy.sqlite');
    fs.copyFileSync(mirror.cacheFile, copy);
    if (fs.existsSync(`${mirror.cacheFile}-wal`))
      fs.copyFileSync(`${mirror.cacheFile}-wal`, `${copy}-wal`);
    const full = await runCliCaptured(buildArgv(fullOut, copy), {
      env: mirror.env,
      cwd: mirror.temp.dir,
    });
    expect(full.code, full.stderr).toBe(0);
    // The whole build's wall time holds the per-language times (and what lies between them).
    const total = JSON.parse(full.stdout).total as { seconds: number; wallSeconds: number };
    expect(total.wallSeconds).toBeGreaterThanOrEqual(total.seconds);
    expect(total.seconds).toBeGreaterThan(0);
    const after = bytesOf(fullOut);
    const changing = [...after.keys()].filter(
      (file) => before.has(file) && !before.get(file)!.equals(after.get(file)!),
    );
    expect(changing.length, 'pages the new theme changes').toBeGreaterThan(20);

    const killed = await killWhileWriting(before, changing);
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    const now = bytesOf(mirror.outDir);
    const replaced = changing.filter((file) => now.get(file)?.equals(after.get(file)!));
    // The kill landed while the build wrote: some pages new, some still the previous ones.
    expect(replaced.length, 'pages already rewritten at the kill').toBeGreaterThan(0);
    expect(replaced.length, 'pages still to rewrite at the kill').toBeLessThan(changing.length);
    const torn = [...now].filter(
      ([file, bytes]) => !before.get(file)?.equals(bytes) && !after.get(file)?.equals(bytes),
    );
    expect(
      torn.map(([file]) => file),
      'files neither the previous nor the new build wrote',
    ).toEqual([]);
    expect(
      [...before.keys()].filter((file) => !now.has(file)),
      'files lost',
    ).toEqual([]);

    const rerun = await runCliCaptured(buildArgv(mirror.outDir), {
      env: mirror.env,
      cwd: mirror.temp.dir,
    });
    expect(rerun.code, rerun.stderr).toBe(0);
    const final = bytesOf(mirror.outDir);
    expect([...final.keys()].sort()).toEqual([...after.keys()].sort());
    expect([...final].filter(([file, bytes]) => !after.get(file)!.equals(bytes))).toEqual([]);
  }, 180_000);
});
