/**
 * The SQLite binding must survive the garbage collector freeing what the cache leaves behind:
 * closed connections, statements prepared for one call (`pragma`, one-off queries) and
 * finished iterators. better-sqlite3 12 compiled against the headers of Node 24.19 to 24.21
 * aborts the whole process there (`RemoveEnvironmentCleanupHook`, nodejs/node#65446), at
 * whatever moment the collector runs; this test makes that moment come in a child process so
 * that a bad build fails here, by name, instead of as a crashed test worker somewhere else.
 */
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';

/** Runs in the child: leaves SQLite objects to the collector, then allocates until it runs. */
const CHILD = `
const Database = require('better-sqlite3');
const file = process.argv[1];
for (let round = 0; round < 3; round++) {
  for (let i = 0; i < 10; i++) {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE IF NOT EXISTS t (x INTEGER)');
    db.transaction(() => db.prepare('INSERT INTO t (x) VALUES (?)').run(i))();
    for (const row of db.prepare('SELECT x FROM t LIMIT 5').iterate()) void row;
    for (let j = 0; j < 20; j++) db.prepare('SELECT count(*) FROM t WHERE x > ?').get(j);
    db.close();
  }
  let junk = [];
  for (let i = 0; i < 2e6; i++) {
    junk.push({ i });
    if (junk.length > 1000) junk = [];
  }
}
console.log('survived');
`;

describe('the SQLite binding', () => {
  let temp: TempCache;
  beforeEach(() => {
    temp = tempCache('cms-mirror-binding-');
  });
  afterEach(() => temp.cleanup());

  it('survives the garbage collector freeing closed connections and dropped statements', () => {
    const child = spawnSync(process.execPath, ['-e', CHILD, temp.file], {
      cwd: process.cwd(),
      encoding: 'utf8',
      timeout: 60_000,
    });
    const said = child.stderr.trim().split('\n').slice(0, 3).join('\n');
    expect({ signal: child.signal, status: child.status }, said).toEqual({
      signal: null,
      status: 0,
    });
    expect(child.stdout.trim()).toBe('survived');
  });
});
