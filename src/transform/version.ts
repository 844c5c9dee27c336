/**
 * The version of what transform produces. The cache keys transformed HTML by it, so bump it
 * whenever a change to any plugin or to the processor changes the HTML out for the same HTML
 * in: every item is then transformed again on the next run, and only then.
 */
export const TRANSFORM_VERSION = 3;
