import type { Migration } from './migration.js';
import { migration001 } from './migrations/001-initial.js';
import { migration002 } from './migrations/002-build-outputs.js';
import { migration003 } from './migrations/003-sync-queue.js';
import { migration004 } from './migrations/004-build-state.js';
import { migration005 } from './migrations/005-build-sources.js';
import { migration006 } from './migrations/006-live-items-index.js';
import { migration007 } from './migrations/007-children-queue.js';
import { migration008 } from './migrations/008-live-hashes-index.js';
import { migration009 } from './migrations/009-public-entries.js';
import { migration010 } from './migrations/010-unlisted-items.js';

/** Every schema step, in order. Append new steps; never edit a released one. */
export const MIGRATIONS: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
];

/** The schema version this code writes; `PRAGMA user_version` of an up-to-date cache. */
export const SCHEMA_VERSION: number = MIGRATIONS.length;

/**
 * `PRAGMA application_id` of a cms-mirror cache ("CMSM"): tells our file apart from any
 * other SQLite database, so we never migrate (write into) someone else's file.
 */
export const APPLICATION_ID = 0x434d534d;
