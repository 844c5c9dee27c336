import type { SchemaUpgrade } from '../schema-step.js';

/**
 * What lets a run decide from the cache alone, durably, whether a language's output is
 * current: when the last complete build started reading (`sources_at`; anything written to
 * `items` or `transformed` at or after it may be missing from the output), whether a build was
 * interrupted while writing (`writing_since`), and the transform version and site paths it
 * was built from (another language's pages link to those paths). The change-time indexes make
 * "was anything written since?" a lookup instead of a scan of every item; `items_public`
 * holds exactly the public items (the rule of `publicItemSql` in item-rows.ts, which a test
 * keeps in step with this text), so listing them does not parse every item's JSON.
 */
export const upgrade005: SchemaUpgrade = {
  version: 5,
  description: 'build_state sources, writing flag and paths; change-time indexes',
  up(db) {
    db.exec(`
      ALTER TABLE build_state ADD COLUMN sources_at TEXT;
      ALTER TABLE build_state ADD COLUMN writing_since TEXT;
      ALTER TABLE build_state ADD COLUMN transform_version TEXT;
      ALTER TABLE build_state ADD COLUMN paths_digest TEXT;
      CREATE INDEX items_fetched_at ON items (lang, fetched_at);
      CREATE INDEX items_deleted_at ON items (lang, deleted_at);
      CREATE INDEX transformed_at ON transformed (lang, transformed_at);
      CREATE INDEX items_public ON items (lang, type, id)
        WHERE status = 'publish' AND deleted_at IS NULL
          AND coalesce(json_type(json, '$.content.protected'), '') <> 'true'
          AND coalesce(json_type(json, '$.excerpt.protected'), '') <> 'true'
          AND NOT (coalesce(json_type(json, '$.password'), '') = 'text'
                   AND json_extract(json, '$.password') <> '');
    `);
  },
};
