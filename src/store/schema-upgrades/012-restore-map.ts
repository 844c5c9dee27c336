import type { SchemaUpgrade } from '../schema-step.js';

/**
 * What `restore` re-created: an item deleted for good comes back under a new id (the
 * interface cannot choose ids), and the new id is recorded here right after the site answers,
 * so a re-run (or a run resumed after a crash) finds the item instead of creating it again,
 * and links and parents naming the old id can be moved to the new one. One row per item.
 */
export const upgrade012: SchemaUpgrade = {
  version: 12,
  description: 'restore_map: items restore re-created under a new id',
  up(db) {
    db.exec(`
      CREATE TABLE restore_map (
        lang       TEXT    NOT NULL,
        type       TEXT    NOT NULL,
        old_id     INTEGER NOT NULL,
        new_id     INTEGER NOT NULL,
        run_id     INTEGER,          -- runs.id of the restore that re-created it
        urls       TEXT    NOT NULL, -- JSON [[old URL, new URL], ...]: its links, a file's sizes
        created_at TEXT    NOT NULL,
        PRIMARY KEY (lang, type, old_id)
      );
    `);
  },
};
