/**
 * `npm run build`'s second step: the compiled CLI (`dist/cli/main.js` and the ~320 modules it
 * imports) bundled into `dist/cli/cms-mirror.js`, the package's `bin`, and the chunks it
 * imports on first use (`dist/cli/cms-mirror-<hash>.js`). Node resolves, reads and compiles
 * each ES module on its own; a no-op `run` spent about a fifth of its CPU on that
 * (test/bench/RESULTS.md, "start-up: the CLI bundled"). Split at the code's dynamic imports:
 * each command's stage (the reference site, the transform's HTML parser, push, migrate, ...)
 * is a chunk of its own, so a command reads and compiles only the code it runs, not the whole
 * 3 MB (RESULTS.md, "no-op run: where the time went"). The bundle and its chunks sit beside
 * `main.js`, two levels under the package root like every compiled module, so the paths the
 * code finds through `import.meta.url` (`../../templates/`, `../../package.json`,
 * `../site/render-worker.js`) are the same from each. Left out: better-sqlite3 (a native
 * addon), Eleventy and Pagefind (loaded by the workers, files of their own in `dist/`: the
 * render worker bundled with Eleventy by `bundle-render-worker.mjs`, the search worker not),
 * chokidar (only `watch`).
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { asciiOnly } from './ascii-only.mjs';
import { REQUIRE_BANNER, withoutUnusedRequire } from './require-banner.mjs';
import { checkUndiciModules, undiciParts } from './undici-parts.mjs';

const OUT = 'dist/cli';
const CHUNK = /^cms-mirror-[A-Z0-9]+\.js$/;
const YAML_BUNDLE = 'yaml.cjs';
const UNDICI_ROOT = path.dirname(createRequire(import.meta.url).resolve('undici/package.json'));

// The chunks of an earlier build: their names change with their content.
for (const file of readdirSync(OUT)) if (CHUNK.test(file)) rmSync(`${OUT}/${file}`);

const cli = await build({
  entryPoints: { 'cms-mirror': `${OUT}/main.js` },
  outdir: OUT,
  splitting: true,
  chunkNames: 'cms-mirror-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['better-sqlite3', '@11ty/eleventy', 'pagefind', 'chokidar'],
  // The CommonJS packages inside (yaml, undici) call `require`: each chunk that does keeps
  // its own (`withoutUnusedRequire`).
  banner: { js: REQUIRE_BANNER },
  plugins: [
    undiciParts(UNDICI_ROOT),
    yamlOnDemand(),
    commanderChildProcessOnDemand(),
    betterSqliteRequired(),
  ],
  metafile: true,
  // Written once rewritten.
  write: false,
  logLevel: 'warning',
});
checkUndiciModules(cli.metafile, UNDICI_ROOT);
for (const output of cli.outputFiles) {
  const file = path.relative('.', output.path);
  writeFileSync(file, asciiOnly(withoutUnusedRequire(output.text, file), file));
}

// The `yaml` package as one CommonJS file, which `dist/config/yaml-module.js` requires in the
// bundle when a pipeline file is not plain enough for `readPlainYaml`.
await build({
  stdin: { contents: "module.exports = require('yaml');", resolveDir: '.', loader: 'js' },
  outfile: `${OUT}/${YAML_BUNDLE}`,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
});
rewriteAsciiOnly(`${OUT}/${YAML_BUNDLE}`, 'script');

/**
 * Each file as one byte a character in V8 (`ascii-only.mjs`): the undici chunk's two-byte text
 * was decoded and compiled as such on every run.
 */
function rewriteAsciiOnly(file, sourceType) {
  const source = readFileSync(file, 'utf8');
  const ascii = asciiOnly(source, file, { sourceType });
  if (ascii !== source) writeFileSync(file, ascii);
}

/**
 * `dist/config/yaml-module.js` requires the `yaml` package on first use, so that a no-op `run`
 * whose pipeline file `readPlainYaml` reads does not load it (~35 ms of CPU; RESULTS.md,
 * i-noop6). In the bundle it requires `yaml.cjs` beside the chunks instead: the package's own
 * ~70 CommonJS files took ~120 ms to require, its bundled copy as much as an import.
 */
function yamlOnDemand() {
  return {
    name: 'yaml-on-demand',
    setup(bundle) {
      bundle.onLoad({ filter: /[\\/]dist[\\/]config[\\/]yaml-module\.js$/ }, () => ({
        contents: [
          "import { createRequire } from 'node:module';",
          `export function yamlModule() { return createRequire(import.meta.url)('./${YAML_BUNDLE}'); }`,
        ].join('\n'),
        loader: 'js',
      }));
    },
  };
}

/**
 * commander requires Node's `child_process` when it loads, for the executable subcommands
 * (`git-style` programs) that this CLI does not have; with its internals (and `dgram`, which
 * it requires) that cost every command ~3 ms of CPU (test/bench/RESULTS.md, i-noop8 and
 * i-noop9). It gets the module on first use instead. The build fails if commander stops
 * requiring it, so that the stand-in does not outlive its reason.
 */
function commanderChildProcessOnDemand() {
  const importer = /[\\/]commander[\\/]lib[\\/]command\.js$/;
  const namespace = 'cms-mirror-on-demand';
  let used = false;
  return {
    name: 'commander-child-process-on-demand',
    setup(bundle) {
      bundle.onResolve({ filter: /^(node:)?child_process$/ }, (args) => {
        if (!importer.test(args.importer)) return undefined;
        used = true;
        return { path: 'node:child_process', namespace };
      });
      bundle.onLoad({ filter: /.*/, namespace }, () => ({
        contents: [
          'let loaded;',
          'const load = () => (loaded ??= process.getBuiltinModule("node:child_process"));',
          'module.exports = new Proxy({}, { get: (_, name) => load()[name], has: (_, name) => name in load() });',
        ].join('\n'),
        loader: 'js',
      }));
      bundle.onEnd((result) => {
        if (result.errors.length === 0 && !used) {
          throw new Error('commander no longer requires child_process: drop its stand-in');
        }
      });
    },
  };
}

/**
 * better-sqlite3 (a native addon, outside the bundle) is CommonJS: imported by an ES module,
 * Node resolved it as an ES package and ran its CommonJS lexer over its files to find the
 * names it exports, before requiring it all the same. The chunks require it instead, through
 * their banner's `require` (test/bench/RESULTS.md, i-noop9).
 */
function betterSqliteRequired() {
  const namespace = 'cms-mirror-required';
  return {
    name: 'better-sqlite3-required',
    setup(bundle) {
      bundle.onResolve({ filter: /^better-sqlite3$/ }, (args) =>
        args.namespace === namespace ? undefined : { path: args.path, namespace },
      );
      bundle.onLoad({ filter: /.*/, namespace }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };
}
