import type { SchemaUpgrade } from '../schema-step.js';

/**
 * The kept history of a backup cache. `items` holds only the latest JSON of an item, which
 * the next pull overwrites, and revisions keep only title, content and excerpt; so a
 * `--backup` pull appends here every version of an item it stores (with the pull that saw it)
 * and a row with `gone = 1` when a pull first misses the item. Append only: a row is never
 * updated or deleted. An unchanged item adds no row. `seq` orders the rows of one item.
 * No CHECK on `type`: the collections are described in one registry, not in the schema.
 */
export const upgrade011: SchemaUpgrade = {
  version: 11,
  description: 'item_versions: the kept history of a backup cache',
  up(db) {
    db.exec(`
      CREATE TABLE item_versions (
        seq          INTEGER PRIMARY KEY,
        lang         TEXT    NOT NULL,
        type         TEXT    NOT NULL,
        id           INTEGER NOT NULL,
        run_id       INTEGER,          -- runs.id of the pull that saw it
        seen_at      TEXT    NOT NULL, -- when that pull stored it (or first missed it)
        gone         INTEGER NOT NULL DEFAULT 0,  -- 1: the pull no longer found the item
        status       TEXT,
        modified_gmt TEXT,
        content_hash TEXT,             -- NULL when gone
        json         TEXT              -- the item as fetched; NULL when gone
      );
      CREATE INDEX item_versions_item ON item_versions (lang, type, id, seq);
      CREATE INDEX item_versions_seen ON item_versions (lang, seen_at);
    `);
  },
};
