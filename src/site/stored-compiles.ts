/**
 * Nunjucks' compiled code of the theme, kept in the cache file between runs
 * (`nunjucks_compiles`): each run starts a render worker whose compile cache is empty
 * (`nunjucks-compile-cache.ts`), and a run after one edit spent ~150 ms (profiled) of its
 * few pages' render compiling the layouts and includes again (issue 17). This thread reads
 * the code for the renderer's first request and keeps what the renderer compiled
 * (`BuildWorkers.useCompiles`).
 *
 * Code is only ever read back for the compiler that made it: Eleventy's and Nunjucks' versions
 * as installed, and this package's own (the render worker is bundled with the Nunjucks it was
 * built with: a new release may bring another).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { NunjucksCompilesRepo } from '../store/index.js';
import type { CompiledTemplates } from './nunjucks-compile-cache.js';

/** Where a build's compiled templates come from and go to. */
export interface CompileStore {
  /** Code compiled by earlier runs, by the digest of its compile key. */
  read(): CompiledTemplates;
  /** Code the renderer compiled, to keep for later runs. */
  keep(compiled: CompiledTemplates): void;
}

/** The cache file's compiled templates, for the compiler installed now. */
export function storedCompiles(
  repo: NunjucksCompilesRepo,
  compiler: () => string | undefined = nunjucksCompiler,
): CompileStore {
  let identity: { name: string | undefined } | undefined;
  const current = (): string | undefined => (identity ??= { name: compiler() }).name;
  return {
    read() {
      const name = current();
      return name === undefined ? new Map() : repo.read(name);
    },
    keep(compiled) {
      const name = current();
      if (name !== undefined) repo.keep(name, compiled);
    },
  };
}

/**
 * Names the code that compiles the theme: this package's, Eleventy's and Nunjucks' versions;
 * undefined when one cannot be read (then nothing is read or kept: the worker compiles).
 */
export function nunjucksCompiler(): string | undefined {
  try {
    const eleventyEntry = createRequire(import.meta.url).resolve('@11ty/eleventy');
    // Eleventy's `exports` hide its package.json; its entry sits one folder under its root.
    const eleventy = versionIn(path.resolve(path.dirname(eleventyEntry), '..', 'package.json'));
    const nunjucks = versionIn(createRequire(eleventyEntry).resolve('nunjucks/package.json'));
    const own = versionIn(new URL('../../package.json', import.meta.url));
    if (eleventy === undefined || nunjucks === undefined || own === undefined) return undefined;
    return `cms-mirror ${own}; @11ty/eleventy ${eleventy}; nunjucks ${nunjucks}`;
  } catch {
    return undefined;
  }
}

function versionIn(file: string | URL): string | undefined {
  const { version } = JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown };
  return typeof version === 'string' ? version : undefined;
}
