import type { SchemaUpgrade } from '../schema-step.js';

/**
 * Two logs of changed items, written by triggers on `items` so that every writer (the pull,
 * tombstones, restore, migrate, tests) is covered: a one-edit run read every item of its
 * language twice for the one item it changed (issue 17) — every public item against its
 * stored site path (`matchPublicItems`) and every live item against its transformed row
 * (`iterateStale`), ~60–100 ms of CPU each warm and up to seconds cold at 10,000 posts.
 *
 * `site_paths_changes`: the items whose place in a language's site may have changed since its
 * site paths were last found current. A language is logged once it is in
 * `site_paths_logging` (its rows were assigned, or checked whole, by code that reads the log):
 * a cache upgraded from an older step logs nothing until its first full check. An update is
 * logged only when it moves what a site path is assigned from: the item's key, its `link`, or
 * whether it is public. A row already logged is left (`ON CONFLICT DO NOTHING`: an `OR IGNORE` in a trigger gives way
 * to the writing statement's own conflict rule). A later step that rebuilds `items` must create
 * these triggers again.
 *
 * `transform_changes`: the items that may have become stale since the language's last
 * complete transform, one row per change (`seq` orders them, so a transform forgets only the
 * changes made before it read the log). A language is logged once it is in
 * `transform_logging`; its `transform_version` is the transform key of the last complete
 * pass ('' while one runs), and any other key reads every item again. Logged: an insert; an
 * update of the content's hash, the tombstone, the public flag or the key; a transformed row
 * deleted (its item is stale again).
 */
export const upgrade020: SchemaUpgrade = {
  version: 20,
  description: 'items whose site paths or transforms may have changed, logged by triggers',
  up(db) {
    db.exec(`
      CREATE TABLE site_paths_logging (lang TEXT PRIMARY KEY) WITHOUT ROWID;
      CREATE TABLE site_paths_changes (
        lang TEXT    NOT NULL,
        type TEXT    NOT NULL,
        id   INTEGER NOT NULL,
        PRIMARY KEY (lang, type, id)
      ) WITHOUT ROWID;
      CREATE TRIGGER items_site_paths_inserted AFTER INSERT ON items
        WHEN EXISTS (SELECT 1 FROM site_paths_logging WHERE lang = NEW.lang)
        BEGIN
          INSERT INTO site_paths_changes (lang, type, id)
            VALUES (NEW.lang, NEW.type, NEW.id) ON CONFLICT DO NOTHING;
        END;
      CREATE TRIGGER items_site_paths_deleted AFTER DELETE ON items
        WHEN EXISTS (SELECT 1 FROM site_paths_logging WHERE lang = OLD.lang)
        BEGIN
          INSERT INTO site_paths_changes (lang, type, id)
            VALUES (OLD.lang, OLD.type, OLD.id) ON CONFLICT DO NOTHING;
        END;
      CREATE TRIGGER items_site_paths_updated AFTER UPDATE ON items
        WHEN (OLD.lang IS NOT NEW.lang OR OLD.type IS NOT NEW.type OR OLD.id IS NOT NEW.id
            OR OLD.link IS NOT NEW.link OR OLD.is_public IS NOT NEW.is_public)
          AND EXISTS (SELECT 1 FROM site_paths_logging WHERE lang IN (OLD.lang, NEW.lang))
        BEGIN
          INSERT INTO site_paths_changes (lang, type, id)
            SELECT OLD.lang, OLD.type, OLD.id
            WHERE EXISTS (SELECT 1 FROM site_paths_logging WHERE lang = OLD.lang)
            ON CONFLICT DO NOTHING;
          INSERT INTO site_paths_changes (lang, type, id)
            SELECT NEW.lang, NEW.type, NEW.id
            WHERE EXISTS (SELECT 1 FROM site_paths_logging WHERE lang = NEW.lang)
            ON CONFLICT DO NOTHING;
        END;
      CREATE TABLE transform_logging (
        lang              TEXT PRIMARY KEY,
        transform_version TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE transform_changes (
        seq  INTEGER PRIMARY KEY,
        lang TEXT    NOT NULL,
        type TEXT    NOT NULL,
        id   INTEGER NOT NULL
      );
      CREATE INDEX transform_changes_items ON transform_changes (lang, type, id, seq);
      CREATE TRIGGER items_transform_inserted AFTER INSERT ON items
        WHEN EXISTS (SELECT 1 FROM transform_logging WHERE lang = NEW.lang)
        BEGIN
          INSERT INTO transform_changes (lang, type, id) VALUES (NEW.lang, NEW.type, NEW.id);
        END;
      CREATE TRIGGER items_transform_updated AFTER UPDATE ON items
        WHEN (OLD.lang IS NOT NEW.lang OR OLD.type IS NOT NEW.type OR OLD.id IS NOT NEW.id
            OR OLD.content_hash IS NOT NEW.content_hash OR OLD.deleted_at IS NOT NEW.deleted_at
            OR OLD.is_public IS NOT NEW.is_public)
          AND EXISTS (SELECT 1 FROM transform_logging WHERE lang = NEW.lang)
        BEGIN
          INSERT INTO transform_changes (lang, type, id) VALUES (NEW.lang, NEW.type, NEW.id);
        END;
      CREATE TRIGGER transformed_deleted AFTER DELETE ON transformed
        WHEN EXISTS (SELECT 1 FROM transform_logging WHERE lang = OLD.lang)
        BEGIN
          INSERT INTO transform_changes (lang, type, id) VALUES (OLD.lang, OLD.type, OLD.id);
        END;
    `);
  },
};
