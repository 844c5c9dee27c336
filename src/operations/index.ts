/**
 * The operations the CLI runs, one calling convention for all: each takes one options object
 * holding `settings` (from `resolveSettings`) and returns (a promise of) a `...Result`. Each
 * loads its stage when called, so importing this module costs next to nothing.
 */
export { pull } from './pull.js';
export type { PullOptions, PullResult } from './pull.js';
export { build, serve } from './build.js';
export type { BuildOptions, BuildResult, ServeOptions, ServeResult } from './build.js';
export { run } from './run.js';
export type { RunOptions, RunResult } from './run.js';
export { backup, status, verify } from './cache.js';
export type {
  BackupOptions,
  BackupResult,
  StatusOptions,
  StatusResult,
  VerifyOptions,
  VerifyResult,
} from './cache.js';
export { checkout, push, watch } from './edits.js';
export type {
  CheckoutOptions,
  CheckoutResult,
  PushOptions,
  PushResult,
  WatchOptions,
} from './edits.js';
export { diff } from './diff.js';
export type { DiffOptions, DiffResult } from './diff.js';
export { migrate } from './migrate.js';
export type { MigrateOptions, MigrateResult } from './migrate.js';
export { restore } from './restore.js';
export type { RestoreOptions, RestoreResult } from './restore.js';
