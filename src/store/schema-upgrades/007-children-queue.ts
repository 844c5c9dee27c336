import type { SchemaUpgrade } from '../schema-step.js';

/**
 * A page whose link changed changes its descendants' links without moving their `modified`,
 * so the pull refetches its children. That work is now queued (`task = 'children'`) in the
 * same transaction as the moved page, like revisions and assets: a pull killed in between
 * leaves the work for the next pull instead of stale links. SQLite cannot change a CHECK
 * constraint in place, so the table is rebuilt with its rows.
 */
export const upgrade007: SchemaUpgrade = {
  version: 7,
  description: 'sync_queue: children of moved pages',
  up(db) {
    db.exec(`
      CREATE TABLE sync_queue_next (
        lang      TEXT    NOT NULL,
        task      TEXT    NOT NULL CHECK (task IN ('revisions', 'assets', 'children')),
        type      TEXT    NOT NULL CHECK (type IN ('posts', 'pages', 'media')),
        id        INTEGER NOT NULL,
        queued_at TEXT    NOT NULL,
        PRIMARY KEY (lang, task, type, id)
      );
      INSERT INTO sync_queue_next (lang, task, type, id, queued_at)
        SELECT lang, task, type, id, queued_at FROM sync_queue;
      DROP TABLE sync_queue;
      ALTER TABLE sync_queue_next RENAME TO sync_queue;
    `);
  },
};
