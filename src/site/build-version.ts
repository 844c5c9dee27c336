/**
 * The build's own version, in a module of its own: the freshness check reads it on every run,
 * and a no-op run need not load the site plan (`site-plan.ts`, which re-exports it) to do so.
 */

/** Bump when the build's own output changes for the same input, so every page is redone. */
export const BUILD_VERSION = '1';
