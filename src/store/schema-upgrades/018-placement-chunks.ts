import type { SchemaUpgrade } from '../schema-step.js';

/**
 * The recorded placement (017) as rows of a bounded size instead of one JSON value per
 * language: at 1,000,000 posts that value was ~54 MB of text, made at the end of a build with
 * the arrays it was made from (issue 17). `build_placement_facts` holds what placing the posts
 * found besides them (their count, the warnings, the media they use);
 * `build_placement_chunks` the posts themselves (place, id, sticky, file), a few hundred to a
 * row, in order. A record of 017 is in the old shape: it is dropped, and the next full build
 * records one again.
 */
export const upgrade018: SchemaUpgrade = {
  version: 18,
  description: 'the recorded placement as chunks of posts',
  up(db) {
    db.exec(`
      DELETE FROM build_placement;
      DROP TABLE build_placement_posts;
      CREATE TABLE build_placement_facts (
        lang TEXT PRIMARY KEY,
        data TEXT NOT NULL
      );
      CREATE TABLE build_placement_chunks (
        lang  TEXT    NOT NULL,
        chunk INTEGER NOT NULL,
        data  TEXT    NOT NULL,
        PRIMARY KEY (lang, chunk)
      ) WITHOUT ROWID;
    `);
  },
};
