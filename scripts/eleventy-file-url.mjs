/**
 * What Eleventy's modules read in place of `import.meta.url` inside the bundled render worker
 * (scripts/bundle-render-worker.mjs): the URL their file has in the installed package, not the
 * bundle's. Eleventy finds its own `package.json` from it (its version, read as it loads) and
 * would register its module hook beside it (not in this build: `ELEVENTY_SKIP_ESM_RESOLVER`).
 * The package is found from the bundle as the unbundled worker found it, once; its location is
 * not written into the bundle, since an installed package's dependencies may sit elsewhere.
 */
import { createRequire } from 'node:module';
import { pathToFileURL, URL } from 'node:url';

/**
 * Where `require.resolve('@11ty/eleventy')` lands (the package's `exports` for `require`): one
 * folder below the package's root. The bundle script checks it when it builds.
 */
export const ELEVENTY_REQUIRE_ENTRY = 'src/EleventyCommonJs.cjs';

let root;

/** The URL of `file` (a path from the package's root) in the installed Eleventy. */
export function eleventyFileUrl(file) {
  root ??= new URL('../', pathToFileURL(createRequire(import.meta.url).resolve('@11ty/eleventy')));
  return new URL(file, root).href;
}
