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
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import http2 from 'node:http2';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const OUT = 'dist/cli';
const CHUNK = /^cms-mirror-[A-Z0-9]+\.js$/;
const YAML_BUNDLE = 'yaml.cjs';

// The chunks of an earlier build: their names change with their content.
for (const file of readdirSync(OUT)) if (CHUNK.test(file)) rmSync(`${OUT}/${file}`);

await build({
  entryPoints: { 'cms-mirror': `${OUT}/main.js` },
  outdir: OUT,
  splitting: true,
  chunkNames: 'cms-mirror-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['better-sqlite3', '@11ty/eleventy', 'pagefind', 'chokidar'],
  // The CommonJS packages inside (yaml, undici) call `require`; every chunk gets its own.
  banner: {
    js: "import { createRequire as cmsMirrorRequire } from 'node:module';\nconst require = cmsMirrorRequire(import.meta.url);",
  },
  plugins: [await http2OnDemand(), yamlOnDemand()],
  logLevel: 'warning',
});

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

/**
 * undici's HTTP/2 client gets `scripts/http2-on-demand.mjs` for `node:http2`, so that Node's
 * http2 and tls load only if a connection is HTTP/2 (never, for this client): loading undici
 * took 8–17 ms more CPU with them (test/bench/RESULTS.md, i-noop5). The build fails rather than
 * bundle a stand-in that no longer matches: each constant must be Node's, and undici's module
 * must use nothing of http2 but those constants and `connect`.
 */
async function http2OnDemand() {
  const url = import.meta.resolve('./http2-on-demand.mjs');
  const stand = fileURLToPath(url);
  const { constants } = await import(url);
  for (const [name, value] of Object.entries(constants)) {
    const node = http2.constants[name];
    if (node !== value) throw new Error(`${stand}: ${name} is ${node} in Node, ${value} here`);
  }
  const importer = /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/;
  return {
    name: 'http2-on-demand',
    setup(bundle) {
      bundle.onResolve({ filter: /^node:http2$/ }, (args) => {
        if (!importer.test(args.importer)) return undefined;
        const used = new Set(readFileSync(args.importer, 'utf8').match(/\bhttp2\.\w+/g));
        used.delete('http2.connect');
        if (used.size > 0) throw new Error(`${args.importer} uses ${[...used].join(', ')}`);
        return { path: stand };
      });
    },
  };
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
