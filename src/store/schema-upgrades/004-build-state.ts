import type { SchemaUpgrade } from '../schema-step.js';

/**
 * What an incremental build needs besides the bytes of each file: the digest of the input each
 * file was made from (so only pages whose input changed are rendered again), and per language
 * the theme, model and site digests of the last build (so a run that changed nothing is
 * skipped without rendering anything).
 */
export const upgrade004: SchemaUpgrade = {
  version: 4,
  description: 'build_state table and build_outputs.input',
  up(db) {
    db.exec(`
      ALTER TABLE build_outputs ADD COLUMN input TEXT NOT NULL DEFAULT '';
      CREATE TABLE build_state (
        lang             TEXT PRIMARY KEY,
        manifest_version INTEGER NOT NULL,
        build_version    TEXT NOT NULL,
        templates_hash   TEXT NOT NULL,
        model_digest     TEXT NOT NULL,
        site_digest      TEXT NOT NULL,  -- what the pull stored about the site, as built
        built_at         TEXT NOT NULL
      );
    `);
  },
};
