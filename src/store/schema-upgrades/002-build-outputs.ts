import type { SchemaUpgrade } from '../schema-step.js';

/**
 * What the last build wrote, file by file, so that an incremental build rewrites only the
 * files whose content hash changed and deletes the files no longer produced.
 */
export const upgrade002: SchemaUpgrade = {
  version: 2,
  description: 'build_outputs table',
  up(db) {
    db.exec(`
      CREATE TABLE build_outputs (
        lang     TEXT    NOT NULL,
        path     TEXT    NOT NULL,  -- relative to output/{lang}/, forward slashes
        hash     TEXT    NOT NULL,  -- sha256 of the bytes written
        bytes    INTEGER NOT NULL,
        built_at TEXT    NOT NULL,
        PRIMARY KEY (lang, path)
      );
    `);
  },
};
