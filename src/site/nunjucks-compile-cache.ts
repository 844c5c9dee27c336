/**
 * Keeps Nunjucks' compiled template code across the Eleventy runs of one renderer. A build
 * renders in chunks, each an Eleventy run of its own with a fresh Nunjucks environment, so
 * every chunk parsed and compiled the theme's layouts and includes again (~10 % of the render
 * worker's time at 10,000 posts: test/bench/RESULTS.md, i-fast). Nunjucks' `compile` turns a
 * template's source into the source of a JavaScript function, and what it returns depends only
 * on its arguments: the template's text, its name, the async filters' names, the extensions'
 * names and tags, and the parse options. Keyed by all of those, the text is reused; each
 * environment still builds its own function from it, so nothing of one run's state (filters,
 * shortcodes, globals) reaches the next.
 *
 * The entries belong to a cache instance (one per renderer), not to the module: Nunjucks'
 * compiler is one module object that every environment calls, so an instance stands in for its
 * `compile` only while a run of its renderer is in progress (`around`).
 *
 * Across processes, code travels by the sha256 of its compile key (`compileDigest`): a
 * renderer is given what earlier processes compiled (`adopt`, from the cache file's
 * `nunjucks_compiles`) and hands back what it compiled itself (`takeCompiled`). The digest
 * covers all of the key, so a template whose text changed never finds its old code.
 */
import { createHash } from 'node:crypto';
import {
  eleventysNunjucksCompiler,
  type NunjucksCompile as Compile,
  type NunjucksExtension,
} from './nunjucks-compiler.js';

/**
 * Entries kept at most: a theme has a few dozen templates; under `watch`, every edit of one
 * adds an entry, so the cache starts again past this.
 */
const MAX_ENTRIES = 500;

/**
 * Nunjucks' own compile behind each wrapper that `around` installed. Weak: a wrapper and its
 * entry go once no compiler refers to it; no cached code is held here.
 */
const UNWRAPPED = new WeakMap<Compile, Compile>();

/** Compiled code by the digest of its compile key (`compileDigest`). */
export type CompiledTemplates = ReadonlyMap<string, string>;

export class NunjucksCompileCache {
  readonly #entries = new Map<string, string>();
  /** Code compiled by earlier processes (`adopt`), by digest; taken only on a miss. */
  readonly #adopted = new Map<string, string>();
  /** Code this instance compiled since `takeCompiled`, by digest. */
  #compiled = new Map<string, string>();

  /** Entries held (for tests and diagnostics). */
  get size(): number {
    return this.#entries.size;
  }

  /** Takes code compiled elsewhere (another process), used for the key whose digest it has. */
  adopt(compiled: CompiledTemplates): void {
    for (const [digest, code] of compiled) {
      if (this.#adopted.size >= MAX_ENTRIES) break;
      this.#adopted.set(digest, code);
    }
  }

  /** The code compiled here (not adopted) since the last call, to keep for other processes. */
  takeCompiled(): CompiledTemplates {
    const taken = this.#compiled;
    this.#compiled = new Map();
    return taken;
  }

  /**
   * Runs `run` with Nunjucks' compiles answered from this cache. Another cache's run that
   * overlaps this one (two renderers on one thread) stacks on top of it; whichever ends first,
   * each stops answering once its own run is over.
   */
  async around<T>(run: () => Promise<T>): Promise<T> {
    const compiler = eleventysNunjucksCompiler();
    const previous = compiler.compile;
    // Nunjucks' own compile, under whatever wrappers overlapping runs stacked on it: a miss
    // here is compiled by Nunjucks and kept in this instance only.
    const nunjucksCompile = UNWRAPPED.get(previous) ?? previous;
    let active = true;
    const cached: Compile = (src, asyncFilters, extensions, name, opts) => {
      if (!active) return previous(src, asyncFilters, extensions, name, opts);
      const key = compileKey(src, asyncFilters, extensions, name, opts);
      if (key === undefined) return nunjucksCompile(src, asyncFilters, extensions, name, opts);
      const known = this.#entries.get(key);
      if (known !== undefined) return known;
      const digest = compileDigest(key);
      let code = this.#adopted.get(digest);
      if (code === undefined) {
        code = nunjucksCompile(src, asyncFilters, extensions, name, opts);
        if (this.#compiled.size < MAX_ENTRIES) this.#compiled.set(digest, code);
      }
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
      this.#entries.set(key, code);
      return code;
    };
    UNWRAPPED.set(cached, nunjucksCompile);
    compiler.compile = cached;
    try {
      return await run();
    } finally {
      active = false;
      // Unless a later run stacked on top: its wrapper calls through this one, now inert.
      if (compiler.compile === cached) compiler.compile = previous;
    }
  }
}

/** The sha256 of a whole compile key: what a compiled code is kept by between processes. */
function compileDigest(key: string): string {
  return createHash('sha256').update(key).digest('hex');
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
