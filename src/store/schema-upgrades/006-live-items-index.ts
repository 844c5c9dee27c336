import type { SchemaUpgrade } from '../schema-step.js';

/**
 * Counting live items (`deleted_at IS NULL`) per language and collection is what every pull
 * does to find deletions cheaply; without an index on `deleted_at` SQLite reads the whole items
 * table, which at 100,000 items was a third of a no-op pull (test/bench/RESULTS.md, scaling).
 */
export const upgrade006: SchemaUpgrade = {
  version: 6,
  description: 'index for live-item counts',
  up(db) {
    db.exec('CREATE INDEX items_live ON items (lang, type, deleted_at)');
  },
};
