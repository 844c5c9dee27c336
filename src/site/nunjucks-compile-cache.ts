/**
 * Keeps Nunjucks' compiled template code across the Eleventy runs of one thread. A build
 * renders in chunks, each an Eleventy run of its own with a fresh Nunjucks environment, so
 * every chunk parsed and compiled the theme's layouts and includes again (~10 % of the render
 * worker's time at 10,000 posts: test/bench/RESULTS.md, i-fast). Nunjucks' `compile` turns a
 * template's source into the source of a JavaScript function, and what it returns depends only
 * on its arguments: the template's text, its name, the async filters' names, the extensions'
 * names and tags, and the parse options. Keyed by all of those, the text is reused; each
 * environment still builds its own function from it, so nothing of one run's state (filters,
 * shortcodes, globals) reaches the next.
 */
import { createRequire } from 'node:module';

interface NunjucksExtension {
  __name?: string;
  tags?: readonly string[];
  preprocess?: unknown;
}

interface NunjucksCompiler {
  compile(
    src: string,
    asyncFilters: readonly string[] | undefined,
    extensions: readonly NunjucksExtension[] | undefined,
    name: string | undefined,
    opts: Record<string, unknown> | undefined,
  ): string;
}

/**
 * Entries kept at most: a theme has a few dozen templates; under `watch`, every edit of one
 * adds an entry, so the cache starts again past this.
 */
const MAX_ENTRIES = 500;

let installed = false;

/**
 * Wraps the `compile` of the Nunjucks that Eleventy loads (resolved from Eleventy's own
 * location, so it is the same module instance). Idempotent.
 */
export function cacheNunjucksCompiles(): void {
  if (installed) return;
  installed = true;
  const fromEleventy = createRequire(createRequire(import.meta.url).resolve('@11ty/eleventy'));
  const compiler = fromEleventy('nunjucks/src/compiler.js') as NunjucksCompiler;
  const compile = compiler.compile.bind(compiler);
  const cache = new Map<string, string>();
  compiler.compile = (src, asyncFilters, extensions, name, opts) => {
    const key = compileKey(src, asyncFilters, extensions, name, opts);
    if (key === undefined) return compile(src, asyncFilters, extensions, name, opts);
    const known = cache.get(key);
    if (known !== undefined) return known;
    const code = compile(src, asyncFilters, extensions, name, opts);
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, code);
    return code;
  };
}

/** Undefined when the result cannot be keyed: an extension may rewrite the source. */
function compileKey(
  src: string,
  asyncFilters: readonly string[] | undefined,
  extensions: readonly NunjucksExtension[] | undefined,
  name: string | undefined,
  opts: Record<string, unknown> | undefined,
): string | undefined {
  if (typeof src !== 'string') return undefined;
  const exts = extensions ?? [];
  if (exts.some((ext) => ext.preprocess !== undefined)) return undefined;
  const parse = opts ?? {};
  return JSON.stringify([
    name ?? null,
    [...(asyncFilters ?? [])],
    exts.map((ext) => [ext.__name ?? null, [...(ext.tags ?? [])]]),
    parse['throwOnUndefined'] ?? null,
    parse['trimBlocks'] ?? null,
    parse['lstripBlocks'] ?? null,
    parse['tags'] ?? null,
    src,
  ]);
}
