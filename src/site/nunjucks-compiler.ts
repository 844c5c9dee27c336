/**
 * Nunjucks' compiler module, the one instance the Nunjucks that Eleventy loads calls: its
 * `compile` is what `nunjucks-compile-cache.ts` stands in for. Resolved from Eleventy's own
 * location, since Eleventy may have a Nunjucks of its own. The bundled render worker gets the
 * bundle's copy of that module in place of this file (scripts/bundle-render-worker.mjs): there
 * Eleventy's Nunjucks is the bundle's, not the one on disk.
 */
import { createRequire } from 'node:module';

export interface NunjucksExtension {
  __name?: string;
  tags?: readonly string[];
  preprocess?: unknown;
}

export type NunjucksCompile = (
  src: string,
  asyncFilters: readonly string[] | undefined,
  extensions: readonly NunjucksExtension[] | undefined,
  name: string | undefined,
  opts: Record<string, unknown> | undefined,
) => string;

export interface NunjucksCompiler {
  compile: NunjucksCompile;
}

export function eleventysNunjucksCompiler(): NunjucksCompiler {
  const fromEleventy = createRequire(createRequire(import.meta.url).resolve('@11ty/eleventy'));
  return fromEleventy('nunjucks/src/compiler.js') as NunjucksCompiler;
}
