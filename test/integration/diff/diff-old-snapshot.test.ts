import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStoreWith, SCHEMA_UPGRADES } from '../../../src/store/index.js';
import { badDay } from '../../helpers/bad-day-scenario.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { runCliCaptured } from '../../helpers/run-cli.js';

/**
 * `diff --snapshot` of a snapshot made by a cms-mirror before schema upgrade 11 (no
 * `item_versions`): it is read through an upgraded temporary copy, the user's file is left as
 * it was, and the report is the one a current snapshot of the same content gives.
 */
const OLD_VERSION = 10;

/** A cache file built at schema version 10 holding the rows of `from` (a current cache). */
function atOldSchema(from: string, to: string): void {
  openStoreWith(to, {}, SCHEMA_UPGRADES.slice(0, OLD_VERSION)).close();
  const db = new Database(to);
  try {
    db.prepare('ATTACH DATABASE ? AS src').run(from);
    const tables = db
      .prepare(
        "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
      )
      .pluck()
      .all() as string[];
    for (const table of tables) {
      const columns = (db.pragma(`main.table_info(${table})`) as { name: string }[])
        .map((column) => `"${column.name}"`)
        .join(', ');
      db.exec(`INSERT INTO main."${table}" (${columns}) SELECT ${columns} FROM src."${table}"`);
    }
    db.exec('DETACH DATABASE src');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

function fileFacts(file: string): { hash: string; version: number; tables: string[] } {
  const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[];
    return { hash, version: Number(db.pragma('user_version', { simple: true })), tables };
  } finally {
    db.close();
  }
}

const upgradedCopies = (): string[] =>
  readdirSync(tmpdir()).filter((name) => name.startsWith('cms-mirror-upgraded-'));

describe('diff --snapshot of a snapshot from before schema upgrade 11', () => {
  const fixture = useSiteAndCache({}, 'cms-mirror-diff-old-');

  it('reads an upgraded temporary copy, leaves the file untouched, reports what a current snapshot does', async () => {
    const day = await badDay(fixture.site, fixture.temp.dir);
    const old = join(fixture.temp.dir, 'old-snapshot.sqlite');
    atOldSchema(day.snapshot, old);
    const before = fileFacts(old);
    expect(before.version).toBe(OLD_VERSION);
    expect(before.tables).not.toContain('item_versions');
    expect(before.tables).toContain('items');
    const copiesBefore = upgradedCopies();

    const diff = (snapshot: string) =>
      runCliCaptured(['diff', ...day.args, '--snapshot', snapshot, '--json'], { env: day.env });
    const fromOld = await diff(old);
    expect([fromOld.code, fromOld.stderr]).toEqual([3, '']);
    const current = await diff(day.snapshot);
    expect(current.code).toBe(3);
    const languages = (stdout: string) => JSON.parse(stdout).languages;
    expect(languages(fromOld.stdout)).toEqual(languages(current.stdout));
    const listed = (languages(fromOld.stdout)[day.lang] as { kind: string; id: number }[])
      .map((change) => `${change.kind} ${change.id}`)
      .sort();
    expect(listed).toEqual(
      [
        `deleted ${day.deleted.post.id}`,
        `trashed ${day.trashed.id}`,
        ...day.edited.map(({ before: post }) =>
          post.id === day.statusChanged ? `unpublished ${post.id}` : `updated ${post.id}`,
        ),
      ].sort(),
    );

    expect(fileFacts(old)).toEqual(before);
    expect(upgradedCopies()).toEqual(copiesBefore);
  }, 120_000);
});
