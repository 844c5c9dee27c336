import type { SchemaUpgrade } from '../schema-step.js';

/**
 * Where the last build placed each public post of a language, so that a run after a few edits
 * that move nothing takes the placement from here instead of reading every post again.
 * `build_placement_posts` holds the site layer's record (JSON, ~50 bytes a post), rewritten
 * only when a build placed the posts anew; `build_placement` the `model_digest` of the build it
 * is the placement of (another is ignored) and the newest post's date, which an edit changes.
 */
export const upgrade017: SchemaUpgrade = {
  version: 17,
  description: 'where the last build placed each post',
  up(db) {
    db.exec(`
      CREATE TABLE build_placement (
        lang         TEXT PRIMARY KEY,
        model_digest TEXT NOT NULL,
        newest       TEXT
      );
      CREATE TABLE build_placement_posts (
        lang TEXT PRIMARY KEY,
        data TEXT NOT NULL
      );
    `);
  },
};
