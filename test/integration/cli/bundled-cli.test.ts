import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { credentialEnv, unpacedPipeline } from '../../helpers/cli-args.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TRACE = fileURLToPath(new URL('../../helpers/trace-modules.mjs', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
};
const BIN = join(ROOT, PACKAGE.bin['cms-mirror'] ?? 'missing');

/**
 * Start-up cost (issue 17): the command users run (the package's `bin`) is one bundled file
 * and the chunks it imports when a command needs them, so a run does not make Node resolve,
 * read and compile some 320 modules one by one, nor compile what it does not run. It must
 * still do everything the compiled modules do: its workers (render, search) start from the
 * files beside the compiled stages, and the theme and package.json are found. Runs the compiled
 * output: `npm run build` first.
 */
describe('the bundled CLI', () => {
  const fixture = useSiteAndCache({ posts: 20 });

  function tracedBin(
    args: string[],
    traceFile: string,
    env: Record<string, string> = {},
  ): Promise<string[]> {
    return new Promise((resolve, reject) => {
      execFile(
        process.execPath,
        ['--import', TRACE, BIN, ...args],
        {
          env: {
            ...process.env,
            ...env,
            ...credentialEnv(fixture.site),
            CMS_MIRROR_TRACE_MODULES: traceFile,
            CMS_MIRROR_TRACE_REQUIRES: `${traceFile}.cjs`,
            CMS_MIRROR_TRACE_BUILTINS: `${traceFile}.builtins`,
          },
          maxBuffer: 64 * 1024 * 1024,
        },
        (error, _stdout, stderr) => {
          if (error) reject(new Error(`${args[0]} failed: ${stderr.slice(-2000)}`));
          else resolve(readFileSync(traceFile, 'utf8').split('\n').filter(Boolean));
        },
      );
    });
  }

  /** The built-in modules a run of the bin loaded, with no loader hook in front of it. */
  function builtinsOfRun(args: string[], file: string): Promise<string[]> {
    const script = [
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(file)}, process.moduleLoadList.join('\\n')));`,
      `process.argv.splice(1, 0, ${JSON.stringify(BIN)});`,
      `import(${JSON.stringify(pathToFileURL(BIN).href)});`,
    ].join('\n');
    return new Promise((resolve, reject) => {
      execFile(
        process.execPath,
        ['-e', script, ...args],
        { env: { ...process.env, ...credentialEnv(fixture.site) }, maxBuffer: 64 * 1024 * 1024 },
        (error, _stdout, stderr) => {
          if (error) reject(new Error(`${args[0]} failed: ${stderr.slice(-2000)}`));
          else resolve(readFileSync(file, 'utf8').split('\n'));
        },
      );
    });
  }

  it('builds a site with its workers, and a no-op run loads the bundle and its externals only', async () => {
    expect(existsSync(BIN), `${BIN} is missing: run "npm run build" first`).toBe(true);
    const { site, temp } = fixture;
    const out = join(temp.dir, 'output');
    const run = [
      ...['run', '--pipeline', unpacedPipeline(temp.dir), '--site', site.url, '--lang', 'pl,es'],
      ...['--cache', temp.file, '--out', out, '--json'],
    ];

    // A first run renders (the render worker) and indexes (the search worker) every page.
    const first = await tracedBin(run, join(temp.dir, 'first.txt'));
    expect(existsSync(join(out, 'pl', 'index.html'))).toBe(true);
    const indexed = readdirSync(join(out, 'es', 'pagefind'), { recursive: true }).map(String);
    expect(indexed.filter((file) => file.endsWith('pagefind.js'))).not.toEqual([]);
    // The render worker is one bundled file with Eleventy in it (scripts/bundle-render-worker.mjs):
    // Node resolves none of Eleventy's ~95 modules (nor the packages they import) one by one,
    // nor Eleventy's module hook (`ELEVENTY_SKIP_ESM_RESOLVER` is set before the bundled
    // Eleventy is evaluated).
    const worker = `file://${join(dirname(BIN), '..', 'site', 'render-worker.js')}`;
    expect(first).toContain(worker);
    expect(first.filter((url) => url.includes('/node_modules/@11ty/'))).toEqual([]);
    expect(
      first.filter((url) => /\/dist\/site\/(page-staging|eleventy-renderer)\.js$/.test(url)),
    ).toEqual([]);
    // Eleventy still reads its own package.json from the installed package, and Nunjucks'
    // compile cache stands in for the bundle's own compiler: none is required from disk.
    const requiredFirst = readFileSync(join(temp.dir, 'first.txt.cjs'), 'utf8').split('\n');
    expect(
      requiredFirst.filter((request) => request.endsWith('/@11ty/eleventy/package.json')),
    ).not.toEqual([]);
    expect(requiredFirst.filter((request) => request.includes('nunjucks'))).toEqual([]);

    const noOp = await tracedBin(run, join(temp.dir, 'no-op.txt'));
    const ours = noOp.filter((url) => url.startsWith('file://') && !url.includes('/node_modules/'));
    // The bin and the chunks beside it that the run imports, nothing else of dist/.
    expect(ours[0]).toBe(`file://${BIN}`);
    const chunk = /^cms-mirror-[A-Z0-9]+\.js$/;
    expect(ours.filter((url) => !chunk.test(basename(url)))).toEqual([`file://${BIN}`]);
    // Only the chunks it needs: not the reference site's, not the HTML parser's, not the
    // build's past its freshness check (each module of a chunk is named in a comment by the
    // bundler), which other commands or runs do load.
    const source = (files: readonly string[]) =>
      files.map((file) => readFileSync(file, 'utf8')).join('\n');
    const loaded = source(ours.map((url) => fileURLToPath(url)));
    const all = source(
      readdirSync(dirname(BIN))
        .filter((file) => chunk.test(file))
        .map((file) => join(dirname(BIN), file)),
    );
    // The bundler names a package's module by its path from the project, which is
    // `node_modules/...` in a checkout and `../<elsewhere>/node_modules/...` when node_modules
    // is a link to another checkout's.
    const unneededChunks = [
      ...['// dist/reference/', 'node_modules/parse5/'],
      ...['// dist/site/site-plan.js', '// dist/site/build-site.js'],
      // The pipeline file is plain YAML: read without the yaml package (push's chunk has it).
      'node_modules/yaml/',
    ];
    for (const unneeded of unneededChunks) {
      expect(all).toContain(unneeded);
      expect(loaded).not.toContain(unneeded);
    }
    // undici's Agent is in the bundle: no CommonJS file of undici is required at run time.
    const required = readFileSync(join(temp.dir, 'no-op.txt.cjs'), 'utf8').split('\n');
    expect(required.filter((request) => request.includes('undici'))).toEqual([]);
    expect(required.some((request) => request.includes('better-sqlite3'))).toBe(true);
    expect(required.filter((request) => /yaml/.test(request))).toEqual([]);
    // Nor Node's http2 and tls, which undici's HTTP/2 client required when it loaded: the
    // client speaks HTTP/1.1 (scripts/undici-parts.mjs). Nor child_process (commander's, for
    // executable subcommands; `demo`'s, for the reference site) with dgram, which it requires.
    const builtins = readFileSync(join(temp.dir, 'no-op.txt.builtins'), 'utf8').split('\n');
    expect(builtins).toContain('http');
    expect(builtins.filter((name) => /^(http2|tls|_tls_wrap)$|\/http2\//.test(name))).toEqual([]);
    expect(builtins.filter((name) => /^(child_process|dgram)$/.test(name))).toEqual([]);
    // Nor worker_threads, for the workers a no-op never starts (`worker-calls.ts`); seen
    // without the module trace, whose hooks' thread and its import of `node:process` (which
    // reads every property of the process object) load it themselves.
    const untraced = await builtinsOfRun(run, join(temp.dir, 'untraced.builtins'));
    expect(untraced).toContain('NativeModule http');
    expect(
      untraced.filter((name) => /^NativeModule (worker_threads|internal\/worker)$/.test(name)),
    ).toEqual([]);
    // No package through the ES loader: better-sqlite3 (a native addon, left out of the
    // bundle) is required, which spares the loader's package resolution and its CommonJS lexer
    // (its `require` is traced above); the bundle does not hoist an external only one command
    // uses (chokidar: watch).
    const packages = noOp.filter((url) => url.includes('/node_modules/'));
    expect(packages).toEqual([]);

    // A pipeline file beyond plain YAML (an anchor) is read by the yaml package, bundled into
    // one file beside the chunks (its own ~70 files took ~120 ms to require).
    const anchored = join(temp.dir, 'anchored.yaml');
    writeFileSync(anchored, 'http: &unpaced\n  requestsPerSecond: 0\n');
    const withAnchor = run.map((arg) => (arg.endsWith('pipeline.yaml') ? anchored : arg));
    expect(withAnchor).toContain(anchored);
    await tracedBin(withAnchor, join(temp.dir, 'anchored.txt'));
    const requiredThen = readFileSync(join(temp.dir, 'anchored.txt.cjs'), 'utf8').split('\n');
    expect(requiredThen.filter((request) => /yaml/.test(request))).toEqual(['./yaml.cjs']);

    // llhttp's build without SIMD is not in the bundle: where SIMD is off it is required from
    // the installed undici, and the run still talks to the site.
    const withoutSimd = join(temp.dir, 'no-simd.txt');
    await tracedBin(run, withoutSimd, { UNDICI_NO_WASM_SIMD: '1' });
    const requiredNoSimd = readFileSync(`${withoutSimd}.cjs`, 'utf8').split('\n');
    expect(requiredNoSimd.filter((request) => request.includes('undici'))).toEqual([
      'undici/lib/llhttp/llhttp-wasm.js',
    ]);
  }, 180_000);

  it("holds undici's Agent without its HTTP/2 client, its fetch bodies and its second llhttp", () => {
    const chunks = readdirSync(dirname(BIN)).filter((file) => /^cms-mirror.*\.js$/.test(file));
    const text = chunks.map((file) => readFileSync(join(dirname(BIN), file), 'utf8')).join('\n');
    const undici = text
      .split('\n')
      .filter((line) => /^\/\/ .*node_modules\/undici\//.test(line))
      .map((line) => line.replace(/.*node_modules\/undici\//, ''));
    expect(undici).toContain('lib/dispatcher/agent.js');
    expect(undici).toContain('lib/dispatcher/client-h1.js');
    expect(undici).toContain('lib/llhttp/llhttp_simd-wasm.js');
    expect(undici.filter((file) => /^lib\/web\/|client-h2|llhttp-wasm/.test(file))).toEqual([]);
    // Were the client ever to reach them, the stand-ins say why they fail.
    expect(text).toContain("undici's HTTP/2 client is left out of cms-mirror's bundle");
    expect(text).toContain("undici's FormData request bodies are left out of cms-mirror's bundle");
  });

  it("leaves Eleventy's language-tag tables, which the renderer never uses, out of the render worker", () => {
    const worker = join(dirname(BIN), '..', 'site', 'render-worker.js');
    expect(existsSync(worker), `${worker} is missing: run "npm run build" first`).toBe(true);
    const bundle = readFileSync(worker, 'utf8');
    // esbuild heads each bundled module with a comment naming its file, relative to the
    // working directory: `// node_modules/...` in a checkout, `// ../x/node_modules/...` where
    // node_modules is a link to another checkout's.
    const modules = bundle.split('\n').filter((line) => line.startsWith('// '));
    const fromPackage = (name: string): string[] =>
      modules.filter((line) => new RegExp(`(^// |/)node_modules/${name}`).test(line));
    expect(fromPackage('@11ty/eleventy/')).not.toEqual([]);
    expect(fromPackage('bcp-47')).toEqual([]);
    // Eleventy's I18nPlugin still imports the stand-in; were it ever called, it says why it fails.
    expect(bundle).toContain('bcp-47-normalize is left out of cms-mirror');
  });
});
