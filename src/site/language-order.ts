/**
 * The order and set of languages a build shows on every page (switcher entries, hreflang
 * lines). Output bytes must depend neither on the order languages were given in nor on which
 * of them this run builds, so both come from the pipeline and the cache, never from `--lang`.
 * Pure.
 */

/** The pipeline's languages first, in its order; every other language after, sorted by code. */
export function canonicalOrder(
  languages: readonly string[],
  pipelineLanguages: readonly string[] = [],
): string[] {
  const wanted = new Set(languages);
  const first = pipelineLanguages.filter((lang) => wanted.has(lang));
  const placed = new Set(first);
  const rest = [...wanted].filter((lang) => !placed.has(lang)).sort();
  return [...first, ...rest];
}

/**
 * Every language a page links to: the pipeline's languages when it names them, else every
 * language the cache holds, plus those being built; only languages that were pulled (a
 * language never pulled has no site to link to).
 */
export function switcherLanguages(options: {
  readonly built: readonly string[];
  readonly pipelineLanguages: readonly string[] | undefined;
  readonly cached: readonly string[];
  readonly pulled: (lang: string) => boolean;
}): string[] {
  const all = new Set([...(options.pipelineLanguages ?? options.cached), ...options.built]);
  return canonicalOrder(
    [...all].filter((lang) => options.built.includes(lang) || options.pulled(lang)),
    options.pipelineLanguages,
  );
}
