import type { SchemaUpgrade } from './schema-step.js';
import { upgrade001 } from './schema-upgrades/001-initial.js';
import { upgrade002 } from './schema-upgrades/002-build-outputs.js';
import { upgrade003 } from './schema-upgrades/003-sync-queue.js';
import { upgrade004 } from './schema-upgrades/004-build-state.js';
import { upgrade005 } from './schema-upgrades/005-build-sources.js';
import { upgrade006 } from './schema-upgrades/006-live-items-index.js';
import { upgrade007 } from './schema-upgrades/007-children-queue.js';
import { upgrade008 } from './schema-upgrades/008-live-hashes-index.js';
import { upgrade009 } from './schema-upgrades/009-public-entries.js';
import { upgrade010 } from './schema-upgrades/010-unlisted-items.js';
import { upgrade011 } from './schema-upgrades/011-item-versions.js';
import { upgrade012 } from './schema-upgrades/012-restore-map.js';
import { upgrade013 } from './schema-upgrades/013-build-layout.js';
import { upgrade014 } from './schema-upgrades/014-build-staged.js';
import { upgrade015 } from './schema-upgrades/015-lacking-facts.js';
import { upgrade016 } from './schema-upgrades/016-site-paths.js';
import { upgrade017 } from './schema-upgrades/017-build-placement.js';
import { upgrade018 } from './schema-upgrades/018-placement-chunks.js';
import { upgrade019 } from './schema-upgrades/019-nunjucks-compiles.js';
import { upgrade020 } from './schema-upgrades/020-item-change-logs.js';

/** Every schema step, in order. Append new steps; never edit a released one. */
export const SCHEMA_UPGRADES: readonly SchemaUpgrade[] = [
  upgrade001,
  upgrade002,
  upgrade003,
  upgrade004,
  upgrade005,
  upgrade006,
  upgrade007,
  upgrade008,
  upgrade009,
  upgrade010,
  upgrade011,
  upgrade012,
  upgrade013,
  upgrade014,
  upgrade015,
  upgrade016,
  upgrade017,
  upgrade018,
  upgrade019,
  upgrade020,
];

/** The schema version this code writes; `PRAGMA user_version` of an up-to-date cache. */
export const SCHEMA_VERSION: number = SCHEMA_UPGRADES.length;

/**
 * `PRAGMA application_id` of a cms-mirror cache ("CMSM"): tells our file apart from any
 * other SQLite database, so we never migrate (write into) someone else's file.
 */
export const APPLICATION_ID = 0x434d534d;
