/**
 * `npm run build`'s third step: the render worker (`dist/site/render-worker.js`), the modules
 * of ours it imports and Eleventy with its dependencies, bundled into one file in its place.
 * Unbundled, the worker's import of Eleventy had Node resolve, read and compile ~450 files
 * (~0.9 s of CPU), the longest path of a one-edit `run` (test/bench/RESULTS.md, i-edit8 and
 * i-edit9). The bundle stays at the compiled worker's path, so the library and the bundled CLI
 * start it alike (`build-workers.ts`), and the paths our modules find through
 * `import.meta.url` are those of `dist/site/`.
 *
 * What Eleventy finds at run time is kept as it was: its modules' `import.meta.url` is the
 * URL of their file in the installed package (`eleventy-file-url.mjs`), for its own
 * `package.json`; the template engines it imports on first use are its own modules, bundled;
 * a theme's files and data are read from disk as before. Left out: its dev server (`serve`)
 * and the watcher it imports by a name the bundler cannot see (`watch`); the render calls
 * neither (`eleventy-renderer.ts` runs `toJSON` only), and the language-tag tables of its
 * I18nPlugin, which the renderer never adds (`unusedLanguageTags`). Any other module in the bundle that
 * finds files from its own location must be named in `OWN_LOCATION` with why it may, or the
 * build fails.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { build, transform } from 'esbuild';
import { asciiOnly } from './ascii-only.mjs';
import { ELEVENTY_REQUIRE_ENTRY } from './eleventy-file-url.mjs';

const ENTRY = 'dist/site/render-worker.js';
const BANNER =
  "import { createRequire as cmsMirrorRequire } from 'node:module';\nconst require = cmsMirrorRequire(import.meta.url);";

/**
 * Modules in the bundle besides Eleventy's that use their own location, and why that is the
 * bundle's location here without harm.
 */
const OWN_LOCATION = new Map([
  ['scripts/eleventy-file-url.mjs', 'finds Eleventy from the bundle, as the unbundled worker did'],
  // An optional `require('picomatch')` through `createRequire(import.meta.url)`: from the
  // bundle it finds this package's picomatch, as Node finds it for Eleventy's other modules.
  ['fdir/dist/index.mjs', 'its optional picomatch, found from the bundle'],
  ['dist/worker-calls.js', 'starts workers from the main thread only; this thread serves calls'],
  ['dist/transform/offloaded-transform.js', 'the main thread starts the transform worker'],
]);

/** Our modules the bundle gets another body for (`bundledNunjucksCompiler`). */
const REPLACED = /[\\/]dist[\\/]site[\\/]nunjucks-compiler\.js$/;

const OWN_LOCATION_MARK = 'cmsMirrorOwnLocation';

/** Where the stand-ins of the modules left out of the bundle live (`unusedLanguageTags`). */
const LEFT_OUT_NAMESPACE = 'cms-mirror-left-out';
const LEFT_OUT =
  "bcp-47-normalize is left out of cms-mirror's render worker (Eleventy's I18nPlugin is not used there)";

const requireHere = createRequire(import.meta.url);
const eleventyEntry = requireHere.resolve('@11ty/eleventy');
const eleventyRoot = path.resolve(path.dirname(eleventyEntry), '..');
const eleventyEntryFromRoot = path.relative(eleventyRoot, eleventyEntry).split(path.sep).join('/');
if (eleventyEntryFromRoot !== ELEVENTY_REQUIRE_ENTRY) {
  throw new Error(
    `@11ty/eleventy's require entry is ${eleventyEntryFromRoot}, not ${ELEVENTY_REQUIRE_ENTRY}`,
  );
}
if (readFileSync(ENTRY, 'utf8').startsWith(BANNER)) {
  throw new Error(`${ENTRY} is already a bundle: compile it first (tsc -p tsconfig.build.json)`);
}

const result = await build({
  entryPoints: [ENTRY],
  outfile: ENTRY,
  // Written once checked, over its own entry.
  write: false,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['@11ty/eleventy-dev-server', 'better-sqlite3'],
  // The CommonJS packages inside call `require`.
  banner: { js: BANNER },
  plugins: [eleventyFileUrls(), bundledNunjucksCompiler(), unusedLanguageTags()],
  metafile: true,
  logLevel: 'warning',
});
await checkOwnLocations(result.metafile);
const [bundled] = result.outputFiles;
// One byte a character in V8 (`ascii-only.mjs`): ~110 characters in comments and regular
// expressions made the whole 3 MB two bytes a character, decoded as such on each start.
writeFileSync(ENTRY, asciiOnly(bundled.text, ENTRY));
// tsc's map of the compiled entry would describe another file.
rmSync(`${ENTRY}.map`, { force: true });

/** Eleventy's `import.meta.url`, each file's URL in the installed package. */
function eleventyFileUrls() {
  const helper = fileURLToPath(new URL('./eleventy-file-url.mjs', import.meta.url));
  const inEleventy = new RegExp(`^${escape(eleventyRoot + path.sep)}.*\\.js$`);
  return {
    name: 'eleventy-file-urls',
    setup(bundle) {
      bundle.onLoad({ filter: inEleventy }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta')) return undefined;
        const file = path.relative(eleventyRoot, args.path).split(path.sep).join('/');
        const rewritten = source.replaceAll(
          'import.meta.url',
          `cmsMirrorEleventyFileUrl(${JSON.stringify(file)})`,
        );
        if (rewritten.includes('import.meta')) {
          throw new Error(`${args.path} reads import.meta other than its url`);
        }
        return {
          contents: `import { eleventyFileUrl as cmsMirrorEleventyFileUrl } from ${JSON.stringify(helper)};\n${rewritten}`,
          loader: 'js',
        };
      });
    },
  };
}

/**
 * `nunjucks-compiler.js` gives the bundle's own copy of the compiler module that Eleventy's
 * Nunjucks calls (resolved from Eleventy's location, as the compiled module does at run time):
 * from disk it would be another instance, which the bundled Nunjucks never calls, and the
 * compile cache would silently keep nothing.
 */
function bundledNunjucksCompiler() {
  const compiler = createRequire(eleventyEntry).resolve('nunjucks/src/compiler.js');
  return {
    name: 'bundled-nunjucks-compiler',
    setup(bundle) {
      bundle.onLoad({ filter: REPLACED }, () => ({
        contents: `export function eleventysNunjucksCompiler() { return require(${JSON.stringify(compiler)}); }`,
        loader: 'js',
      }));
    },
  };
}

/**
 * Eleventy's I18nPlugin (imported by Eleventy's entry, added only by a config that asks for
 * it; the renderer's never does) checks language codes with `bcp-47-normalize`, whose tables
 * (~300 KB of object literals with the `bcp-47` parser, 9 % of the bundle) were parsed and
 * built by every start of the worker, on the one-edit run's longest path (test/bench/RESULTS.md,
 * i-edit11). Its one function is called only from the plugin's own functions: the bundle gets
 * one that throws, saying why.
 */
function unusedLanguageTags() {
  return {
    name: 'unused-language-tags',
    setup(bundle) {
      bundle.onResolve({ filter: /^bcp-47-normalize$/ }, () => ({
        path: 'bcp-47-normalize',
        namespace: LEFT_OUT_NAMESPACE,
      }));
      bundle.onLoad({ filter: /.*/, namespace: LEFT_OUT_NAMESPACE }, () => ({
        contents: `export function bcp47Normalize() { throw new Error(${JSON.stringify(LEFT_OUT)}); }`,
        loader: 'js',
      }));
    },
  };
}

/** Fails the build for a module that would look for files beside the bundle unawares. */
async function checkOwnLocations(metafile) {
  const [output] = Object.values(metafile.outputs);
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    // A stand-in has no file, and finds none.
    if (bytesInOutput === 0 || input.startsWith(`${LEFT_OUT_NAMESPACE}:`)) continue;
    const file = path.resolve(input);
    if (file.startsWith(eleventyRoot + path.sep) || REPLACED.test(file)) continue;
    if (!(await findsOwnLocation(file))) continue;
    const known = [...OWN_LOCATION.keys()].some((name) => file.endsWith(path.sep + name));
    if (!known) throw new Error(`${input} finds files from its own location: check it (${ENTRY})`);
  }
}

/** Whether the code (not its comments or strings) reads `import.meta`, `__dirname` or `__filename`. */
async function findsOwnLocation(file) {
  const source = readFileSync(file, 'utf8');
  if (!/\bimport\.meta\b|\b__dirname\b|\b__filename\b/.test(source)) return false;
  const marked = await transform(source, {
    loader: 'js',
    define: {
      'import.meta': OWN_LOCATION_MARK,
      __dirname: OWN_LOCATION_MARK,
      __filename: OWN_LOCATION_MARK,
    },
    logLevel: 'silent',
  });
  return marked.code.includes(OWN_LOCATION_MARK);
}

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
