import type { SchemaUpgrade } from '../schema-step.js';

/**
 * The first schema. Timestamps we produce (`*_at`) are ISO 8601 UTC strings
 * (`2024-05-01T10:00:00.000Z`); timestamps the remote produces (`*_gmt`) are kept as sent
 * (`2022-03-14T02:00:00`, GMT without offset). Both sort correctly as text.
 */
export const upgrade001: SchemaUpgrade = {
  version: 1,
  description: 'initial schema',
  up(db) {
    db.exec(`
      -- One row per remote item per language. The JSON is the item exactly as fetched; the
      -- other columns are derived from it so that queries never parse JSON.
      -- A deleted or unpublished item keeps its row with deleted_at set (a tombstone), so
      -- that the build can remove its page and a backup keeps the last known content.
      CREATE TABLE items (
        lang           TEXT    NOT NULL,
        type           TEXT    NOT NULL CHECK (type IN ('posts', 'pages', 'media')),
        id             INTEGER NOT NULL,
        status         TEXT,
        slug           TEXT,
        parent         INTEGER,   -- pages: parent page; media: the post it is attached to
        menu_order     INTEGER,
        sticky         INTEGER,   -- 1/0 for posts, NULL for other types
        author         INTEGER,
        featured_media INTEGER,
        date_gmt       TEXT,
        modified_gmt   TEXT,
        link           TEXT,
        title          TEXT,      -- title.rendered as plain text
        json           TEXT    NOT NULL,
        content_hash   TEXT    NOT NULL,  -- sha256 of the canonical JSON: decides "changed"
        context        TEXT    NOT NULL CHECK (context IN ('view', 'edit')),
        fetched_at     TEXT    NOT NULL,  -- when this content was last written
        deleted_at     TEXT,
        PRIMARY KEY (lang, type, id)
      );
      -- Watermarks (max modified_gmt), status counts for deletion probes, slug look-ups.
      CREATE INDEX items_modified ON items (lang, type, modified_gmt);
      CREATE INDEX items_status   ON items (lang, type, status);
      CREATE INDEX items_slug     ON items (lang, type, slug);

      -- Revision and autosave ids are unique per site (they are items of the remote store),
      -- hence the key (lang, id). The parent must be mirrored first.
      CREATE TABLE revisions (
        lang         TEXT    NOT NULL,
        parent_type  TEXT    NOT NULL CHECK (parent_type IN ('posts', 'pages')),
        parent_id    INTEGER NOT NULL,
        id           INTEGER NOT NULL,
        author       INTEGER,
        modified_gmt TEXT,
        json         TEXT    NOT NULL,
        content_hash TEXT    NOT NULL,
        fetched_at   TEXT    NOT NULL,
        PRIMARY KEY (lang, id),
        FOREIGN KEY (lang, parent_type, parent_id) REFERENCES items (lang, type, id)
      );
      CREATE INDEX revisions_parent ON revisions (lang, parent_type, parent_id);

      CREATE TABLE autosaves (
        lang         TEXT    NOT NULL,
        parent_type  TEXT    NOT NULL CHECK (parent_type IN ('posts', 'pages')),
        parent_id    INTEGER NOT NULL,
        id           INTEGER NOT NULL,
        author       INTEGER,
        modified_gmt TEXT,
        json         TEXT    NOT NULL,
        content_hash TEXT    NOT NULL,
        fetched_at   TEXT    NOT NULL,
        PRIMARY KEY (lang, id),
        FOREIGN KEY (lang, parent_type, parent_id) REFERENCES items (lang, type, id)
      );
      CREATE INDEX autosaves_parent ON autosaves (lang, parent_type, parent_id);

      -- Media binaries live inside the cache (not as files beside it) so that one file is a
      -- complete backup and an online backup snapshots media with the items that use them.
      -- Content-addressed: the same bytes are stored once whatever URLs point at them.
      CREATE TABLE media_blobs (
        sha256 TEXT    PRIMARY KEY CHECK (length(sha256) = 64),
        bytes  INTEGER NOT NULL,
        data   BLOB    NOT NULL
      );

      -- Every URL we downloaded (source_url or one size of it) and the blob it gave.
      CREATE TABLE media_files (
        url        TEXT    PRIMARY KEY,
        sha256     TEXT    NOT NULL REFERENCES media_blobs (sha256),
        bytes      INTEGER NOT NULL,
        mime_type  TEXT,
        etag       TEXT,           -- for conditional re-downloads
        fetched_at TEXT    NOT NULL,
        lang       TEXT,
        media_id   INTEGER          -- the attachment the URL belongs to, when known
      );
      CREATE INDEX media_files_sha256 ON media_files (sha256);
      CREATE INDEX media_files_media  ON media_files (lang, media_id);

      -- oEmbed answers keyed like the request. response NULL = the provider could not resolve
      -- the URL (cached too, so a dead link does not cost a request on every run).
      CREATE TABLE oembed (
        url        TEXT    NOT NULL,
        maxwidth   INTEGER NOT NULL,
        response   TEXT,
        fetched_at TEXT    NOT NULL,
        expires_at TEXT,           -- NULL = never expires
        PRIMARY KEY (url, maxwidth)
      );

      -- The incremental crawl's memory per language x collection: the watermark (latest
      -- modified_gmt fully committed), the counts of the last comparison and a resume cursor
      -- written in the same transaction as each page, so a killed pull resumes there.
      CREATE TABLE sync_state (
        lang          TEXT NOT NULL,
        collection    TEXT NOT NULL,
        watermark_gmt TEXT,
        context       TEXT CHECK (context IN ('view', 'edit')),
        remote_total  INTEGER,
        local_total   INTEGER,
        cursor        TEXT,         -- JSON, owned by the sync stage
        updated_at    TEXT NOT NULL,
        PRIMARY KEY (lang, collection)
      );

      -- The site index summary and the seo site representation, per language (JSON).
      CREATE TABLE site_info (
        lang       TEXT PRIMARY KEY,
        json       TEXT NOT NULL,
        fetched_at TEXT NOT NULL
      );

      -- Items written to files for editing, with the remote modified_gmt at that moment: push
      -- compares it with the remote to detect conflicts.
      CREATE TABLE checkouts (
        lang              TEXT    NOT NULL,
        type              TEXT    NOT NULL CHECK (type IN ('posts', 'pages', 'media')),
        id                INTEGER NOT NULL,
        file              TEXT    NOT NULL UNIQUE,
        base_modified_gmt TEXT,
        file_hash         TEXT,   -- sha256 of the file as written: unchanged files are skipped
        checked_out_at    TEXT    NOT NULL,
        PRIMARY KEY (lang, type, id),
        FOREIGN KEY (lang, type, id) REFERENCES items (lang, type, id)
      );

      -- Local changes waiting to be pushed. item_id NULL = a new item (no foreign key check
      -- then: SQLite ignores a foreign key with a NULL column).
      CREATE TABLE edits (
        id                INTEGER PRIMARY KEY AUTOINCREMENT,
        lang              TEXT    NOT NULL,
        type              TEXT    NOT NULL CHECK (type IN ('posts', 'pages', 'media')),
        item_id           INTEGER,
        file              TEXT,
        fields            TEXT    NOT NULL,  -- JSON object of the fields to write
        base_modified_gmt TEXT,
        state             TEXT    NOT NULL DEFAULT 'pending'
                                  CHECK (state IN ('pending', 'failed', 'done')),
        error             TEXT,
        created_at        TEXT    NOT NULL,
        updated_at        TEXT    NOT NULL,
        FOREIGN KEY (lang, type, item_id) REFERENCES items (lang, type, id)
      );
      CREATE INDEX edits_state ON edits (state, lang, type);

      -- SchemaUpgrade bookkeeping: which target id a source item became. Keys are
      -- "{site-url}#{lang}". Looking here before creating makes a re-run idempotent.
      CREATE TABLE id_map (
        source_key TEXT    NOT NULL,
        type       TEXT    NOT NULL,
        source_id  INTEGER NOT NULL,
        target_key TEXT    NOT NULL,
        target_id  INTEGER NOT NULL,
        created_at TEXT    NOT NULL,
        PRIMARY KEY (source_key, type, source_id, target_key)
      );

      -- One row per command run, with its counters (JSON), for status and skip decisions.
      CREATE TABLE runs (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        command     TEXT NOT NULL,
        started_at  TEXT NOT NULL,
        finished_at TEXT,
        status      TEXT NOT NULL DEFAULT 'running'
                         CHECK (status IN ('running', 'ok', 'failed', 'partial')),
        counters    TEXT
      );
      CREATE INDEX runs_command ON runs (command, id);

      -- Output of the transform stage per item. source_hash is the items.content_hash it was
      -- made from: a differing hash or an older transform_version means "transform again".
      CREATE TABLE transformed (
        lang              TEXT    NOT NULL,
        type              TEXT    NOT NULL,
        id                INTEGER NOT NULL,
        transform_version TEXT    NOT NULL,
        source_hash       TEXT    NOT NULL,
        html              TEXT    NOT NULL,
        excerpt           TEXT,
        meta              TEXT,   -- JSON owned by the transform stage
        transformed_at    TEXT    NOT NULL,
        PRIMARY KEY (lang, type, id),
        FOREIGN KEY (lang, type, id) REFERENCES items (lang, type, id) ON DELETE CASCADE
      );

      -- Stable, documented read-only view for people who query a backup with sqlite3.
      -- Its columns never change meaning; new columns may only be appended.
      CREATE VIEW cms_items AS
        SELECT lang, type, id, status, slug, parent, modified_gmt, link, title, json, deleted_at
        FROM items;
    `);
  },
};
