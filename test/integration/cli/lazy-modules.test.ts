import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { credentialEnv, unpacedPipeline } from '../../helpers/cli-args.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));
const TRACE = fileURLToPath(new URL('../../helpers/trace-modules.mjs', import.meta.url));

/** Packages only a run with something to transform, render or index needs. */
const HEAVY =
  /\/node_modules\/(unified|rehype-parse|parse5|hast-util-to-html|pagefind|@11ty\/eleventy)\//;

/** The build's code past its freshness check: the model, the site plan, the render and search. */
const REBUILD = /\/src\/site\/(language-rebuild|build-site|site-plan|model-from-store)\.ts$/;

/**
 * Start-up cost (issue 17): a run or a pull that finds nothing changed on the site loads no
 * HTML parser, no Pagefind and no Eleventy, and without a terminal no progress bars; a run
 * loads of the build only what decides that every language is skipped. The CLI runs in a child
 * process of its own with a `--import` hook that records every module the ES loader resolves;
 * the same hook sees them in the first run, which has everything to transform, so it can tell.
 */
describe('modules a command loads', () => {
  const fixture = useSiteAndCache({ posts: 20 });

  function tracedCli(args: string[], traceFile: string): Promise<string[]> {
    const { site } = fixture;
    return new Promise((resolve, reject) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', '--import', TRACE, MAIN, ...args],
        {
          env: { ...process.env, ...credentialEnv(site), CMS_MIRROR_TRACE_MODULES: traceFile },
          maxBuffer: 64 * 1024 * 1024,
        },
        (error, _stdout, stderr) => {
          if (error) reject(new Error(`${args[0]} failed: ${stderr.slice(-2000)}`));
          else resolve(readFileSync(traceFile, 'utf8').split('\n').filter(Boolean));
        },
      );
    });
  }

  it('a no-op run and a pull with no change load neither the HTML parser nor Pagefind nor Eleventy', async () => {
    const { site, temp } = fixture;
    const common = [
      ...['--pipeline', unpacedPipeline(temp.dir), '--site', site.url, '--lang', 'pl,es'],
      ...['--cache', temp.file],
    ];
    const run = ['run', ...common, '--out', join(temp.dir, 'output'), '--json'];

    const first = await tracedCli(run, join(temp.dir, 'first.txt'));
    // The hook sees what a run with work loads: the test can fail.
    expect(first.filter((url) => HEAVY.test(url)).length).toBeGreaterThan(0);
    expect(first.some((url) => url.includes('/node_modules/rehype-parse/'))).toBe(true);
    expect(new Set(first.filter((url) => REBUILD.test(url))).size).toBe(4);

    const noOp = await tracedCli(run, join(temp.dir, 'no-op.txt'));
    expect(noOp.some((url) => url.includes('/src/operations/run.ts'))).toBe(true);
    expect(noOp.filter((url) => HEAVY.test(url))).toEqual([]);
    expect(noOp.some((url) => url.includes('/src/site/language-build.ts'))).toBe(true);
    expect(noOp.filter((url) => REBUILD.test(url))).toEqual([]);
    // stderr is a pipe here, as in a scheduled run: progress is plain lines, no bars' code.
    expect(noOp.filter((url) => url.includes('/node_modules/cli-progress/'))).toEqual([]);

    const pull = await tracedCli(['pull', ...common, '--json'], join(temp.dir, 'pull.txt'));
    expect(pull.some((url) => url.includes('/src/sync/pull.ts'))).toBe(true);
    expect(pull.filter((url) => HEAVY.test(url))).toEqual([]);
  }, 180_000);
});
