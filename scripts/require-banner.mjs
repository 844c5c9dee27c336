/**
 * The `require` that esbuild's output of CommonJS code calls in an ES module: a banner that
 * imports `node:module` and makes one from the file's own URL. esbuild puts a banner on every
 * file, but most chunks never call `require`, and each banner cost a start an import of
 * `node:module` to resolve and link, an `import.meta` and a `createRequire` (a no-op `run`
 * loads ~27 chunks, 5 of which call it: test/bench/RESULTS.md, i-noop9).
 */
export const REQUIRE_BANNER =
  "import { createRequire as cmsMirrorRequire } from 'node:module';\nconst require = cmsMirrorRequire(import.meta.url);";

/**
 * `text` without the banner when nothing else in it names `require` (not even a comment or a
 * string: a file that never spells the name cannot reach the binding).
 * @param {string} text an output file, which holds the banner once, after any hashbang
 * @param {string} file named in the error
 * @returns {string}
 */
export function withoutUnusedRequire(text, file) {
  const at = text.indexOf(REQUIRE_BANNER);
  if (at < 0) throw new Error(`${file}: no require banner`);
  const rest = text.slice(0, at) + text.slice(at + REQUIRE_BANNER.length);
  return /\brequire\b/.test(rest) ? text : rest;
}
