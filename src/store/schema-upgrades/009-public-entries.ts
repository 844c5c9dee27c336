import type { SchemaUpgrade } from '../schema-step.js';

/**
 * Listing a language's public items for a build read every item's whole row: the public
 * rule looks into the JSON, and `content_hash` is stored after it. On a cache the system had
 * not kept in memory that was ~1.2 s for 10,000 posts here (a scheduled run's usual case).
 * `is_public` is the rule as a column (virtual: computed from the row, stored only in the
 * index), and `items_public_entries` holds every column the build's listings read, so they
 * are answered from the index alone (~0.1 s, cold). It replaces `items_public`.
 */
export const upgrade009: SchemaUpgrade = {
  version: 9,
  description: 'public flag and an index of public entries',
  up(db) {
    db.exec(`
      ALTER TABLE items ADD COLUMN is_public INTEGER GENERATED ALWAYS AS (
        status = 'publish' AND deleted_at IS NULL
          AND coalesce(json_type(json, '$.content.protected'), '') <> 'true'
          AND coalesce(json_type(json, '$.excerpt.protected'), '') <> 'true'
          AND NOT (coalesce(json_type(json, '$.password'), '') = 'text'
                   AND json_extract(json, '$.password') <> '')
      ) VIRTUAL;
      CREATE INDEX items_public_entries ON items (lang, type, is_public, id, title, status,
        sticky, parent, menu_order, featured_media, date_gmt, modified_gmt, link, content_hash);
      DROP INDEX items_public;
    `);
  },
};
