import type { SchemaUpgrade } from '../schema-step.js';

/**
 * Work the pull owes for items it stored: their revisions and autosaves (backup mode) and the
 * assets the offline build needs (media files, oEmbed answers). A row is written in the SAME
 * transaction as the item it is about, so a pull killed between storing a page and fetching
 * what the page needs cannot lose that work: the next pull drains what is left.
 */
export const upgrade003: SchemaUpgrade = {
  version: 3,
  description: 'sync_queue table',
  up(db) {
    db.exec(`
      CREATE TABLE sync_queue (
        lang      TEXT    NOT NULL,
        task      TEXT    NOT NULL CHECK (task IN ('revisions', 'assets')),
        type      TEXT    NOT NULL CHECK (type IN ('posts', 'pages', 'media')),
        id        INTEGER NOT NULL,
        queued_at TEXT    NOT NULL,
        PRIMARY KEY (lang, task, type, id)
      );
    `);
  },
};
