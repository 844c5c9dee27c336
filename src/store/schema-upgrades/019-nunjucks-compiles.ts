import type { SchemaUpgrade } from '../schema-step.js';

/**
 * Nunjucks' compiled code of the theme's templates, kept between processes: each `run` starts
 * a render worker whose compile cache was empty, so a one-edit run compiled the layouts and
 * includes again (~150 ms profiled) for its few pages (issue 17). `compiler` names the Eleventy
 * and Nunjucks that compiled the code (rows of another are never read); `digest` is the sha256
 * of everything the compiled code depends on (`nunjucks-compile-cache.ts`), the template's
 * text included, so an edited template never finds its old code.
 */
export const upgrade019: SchemaUpgrade = {
  version: 19,
  description: "Nunjucks' compiled templates, kept between runs",
  up(db) {
    db.exec(`
      CREATE TABLE nunjucks_compiles (
        compiler TEXT NOT NULL,
        digest   TEXT NOT NULL,
        code     TEXT NOT NULL,
        PRIMARY KEY (compiler, digest)
      );
    `);
  },
};
