import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import {
  temporaryFiles,
  textOf,
  waitFor,
  watchFixture,
  withTitle,
  type WatchFixture,
} from '../../helpers/watch-fixture.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('cms-mirror watch (CLI)', () => {
  let fixture: WatchFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it.each(['10x', '5', '0s', '1 h', 'soon'])(
    '--pull-every %s is a usage error (exit 2) naming the accepted forms',
    async (value) => {
      const result = await runCliCaptured(['watch', '--pull-every', value], { env: {} });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `expected a duration such as 500ms, 10s, 5m or 1h, got "${value}"`,
      );
    },
  );

  it('a child process pushes a saved file, and SIGINT waits for the rebuild, exits 0, leaves the cache consistent', async () => {
    fixture = await watchFixture();
    const { site, temp, dir, out, env, post } = fixture;
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/main.ts',
        'watch',
        '--site',
        site.url,
        '--lang',
        'pl',
        '--cache',
        temp.file,
        '--dir',
        dir,
        '--out',
        out,
        '--push',
        '--pull-every',
        '1s',
      ],
      { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    try {
      await waitFor('the watch to start', () => {
        if (child.exitCode !== null) throw new Error(`watch exited early: ${stderr}`);
        return stdout.includes('watching ');
      });
      const title = 'Z procesu potomnego';
      const saved = performance.now();
      writeFileSync(post.file, withTitle(readFileSync(post.file, 'utf8'), title));
      await waitFor('the push', () => stdout.includes('pushed: 1 updated'));
      const pushed = performance.now() - saved;
      // Interrupt while the rebuild of that push is (most likely) still running.
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      console.log(`watch CLI: save → pushed line ${pushed.toFixed(0)} ms`);

      expect(site.control.getItem('pl', 'posts', post.id)?.title).toBe(title);
      // The step that was running when Ctrl-C came was finished, not cut.
      expect(stdout).toMatch(/^rebuilt pl: /m);
      expect(textOf(post.page)).toContain(`<h1>${title}</h1>`);
      expect(stderr).toContain('watch: stopping after the running step');
      expect(stderr).not.toMatch(/error/i);
      const store = openStore(temp.file);
      try {
        expect(store.checkIntegrity()).toEqual([]);
        expect(store.edits.list({ state: 'pending' })).toEqual([]);
      } finally {
        store.close();
      }
      expect(temporaryFiles(dir)).toEqual([]);
      expect(temporaryFiles(out)).toEqual([]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
