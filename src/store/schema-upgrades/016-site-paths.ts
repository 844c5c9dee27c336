import type { SchemaUpgrade } from '../schema-step.js';

/**
 * Where each public page and post of a language lives in its static site, kept in the cache
 * instead of in maps the transform built on every run: at 1,000,000 posts those maps (site
 * paths, the link resolver, the paths taken) held ~1.5 KB a post. `site_paths` has one row per
 * public item: the `link` it was assigned from (a run whose public items and links are the
 * same reuses every row), `link_key` (`urlKey(link)`, what the link resolver looks up), the
 * site path, and whether it is the `/{type}/{id}/` fallback. `site_paths_state` says for which
 * home URL and rules a language's rows were made, and their digest (`sitePathsDigest`).
 */
export const upgrade016: SchemaUpgrade = {
  version: 16,
  description: 'site paths of public items, kept for the transform',
  up(db) {
    db.exec(`
      CREATE TABLE site_paths (
        lang      TEXT    NOT NULL,
        type      TEXT    NOT NULL,
        id        INTEGER NOT NULL,
        link      TEXT,
        link_key  TEXT,
        site_path TEXT    NOT NULL,
        fallback  INTEGER NOT NULL,
        PRIMARY KEY (lang, type, id)
      ) WITHOUT ROWID;
      CREATE INDEX site_paths_links ON site_paths (lang, link_key) WHERE link_key IS NOT NULL;
      CREATE TABLE site_paths_state (
        lang     TEXT PRIMARY KEY,
        home_url TEXT NOT NULL,
        rules    TEXT NOT NULL,
        digest   TEXT NOT NULL
      );
    `);
  },
};
