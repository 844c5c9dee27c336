import type { SchemaUpgrade } from '../schema-step.js';

/**
 * A site's `X-CMS-Total` may count items the reader cannot list (media attached to a draft,
 * for an anonymous reader), so equal counts no longer prove that nothing was deleted. The
 * pull remembers, per language × collection, how many items the site counted but did not
 * list at the last full listing (`unlisted`), and how many pulls ran since that listing
 * (`pulls_since_listing`), to list everything again every Nth pull.
 */
export const upgrade010: SchemaUpgrade = {
  version: 10,
  description: 'sync_state: unlisted items and pulls since the last full listing',
  up(db) {
    db.exec(`
      ALTER TABLE sync_state ADD COLUMN unlisted INTEGER;
      ALTER TABLE sync_state ADD COLUMN pulls_since_listing INTEGER;
    `);
  },
};
