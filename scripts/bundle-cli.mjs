/**
 * `npm run build`'s second step: the compiled CLI (`dist/cli/main.js` and the ~320 modules it
 * imports) bundled into one file, `dist/cli/cms-mirror.js`, the package's `bin`. Node resolves,
 * reads and compiles each ES module on its own; a no-op `run` spent about a fifth of its CPU on
 * that (test/bench/RESULTS.md, "start-up: the CLI bundled"). The bundle sits beside `main.js`,
 * two levels under the package root like every compiled module, so the paths the code finds
 * through `import.meta.url` (`../../templates/`, `../../package.json`, `../site/render-worker.js`)
 * are the same from either. Left out: better-sqlite3 (a native addon), Eleventy and Pagefind
 * (loaded by the workers, which stay unbundled files in `dist/`), chokidar (only `watch`).
 * Modules the code imports on first use (the HTML parser, the transform) are in the bundle
 * too, but only parsed: esbuild runs each module's body when it is first imported.
 */
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/cli/main.js'],
  outfile: 'dist/cli/cms-mirror.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['better-sqlite3', '@11ty/eleventy', 'pagefind', 'chokidar'],
  // The CommonJS packages inside (yaml, undici's pieces) call `require`.
  banner: {
    js: "import { createRequire as cmsMirrorRequire } from 'node:module';\nconst require = cmsMirrorRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
