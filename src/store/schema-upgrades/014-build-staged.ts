import type { SchemaUpgrade } from '../schema-step.js';

/**
 * `build_staged`: the rows of the files a build is making, written as it stages them, so that
 * the build's manifest is never held whole in memory (a million-page site has two million
 * files). The build compares each file with its `build_outputs` row by lookup, and when its
 * output switch is done, one transaction makes the staged rows the language's `build_outputs`
 * and clears them. Rows left by a killed build are the next build's to clear: they never stand
 * for the output. `written` marks the files whose bytes are in the staging directory.
 */
export const upgrade014: SchemaUpgrade = {
  version: 14,
  description: 'build_staged: the rows of the build in progress',
  up(db) {
    db.exec(`
      CREATE TABLE build_staged (
        lang    TEXT    NOT NULL,
        path    TEXT    NOT NULL,  -- relative to output/{lang}/, forward slashes
        hash    TEXT    NOT NULL,  -- sha256 of the bytes made
        input   TEXT    NOT NULL,  -- digest of what the file was made from
        bytes   INTEGER NOT NULL,
        written INTEGER NOT NULL,  -- 1: staged, 0: the file on disk is kept
        PRIMARY KEY (lang, path)
      ) WITHOUT ROWID;
    `);
  },
};
