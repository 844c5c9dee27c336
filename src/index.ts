/**
 * The public library API: the operations the CLI runs, as typed functions. Re-exports only.
 * Every operation takes one options object holding `settings` and returns a `...Result`; the
 * cache's tables stay internal (they are reached through the operations).
 */
export { resolveSettings } from './config/index.js';
export type { CommonFlags, Credentials, Settings } from './config/index.js';
export * from './errors.js';

export {
  backup,
  build,
  checkout,
  diff,
  migrate,
  pull,
  push,
  restore,
  run,
  serve,
  status,
  verify,
  watch,
} from './operations/index.js';
export type * from './operations/index.js';
export type {
  CacheStatus,
  CollectionStatus,
  PullCounters,
  PullEvent,
  VerifyDifference,
} from './sync/index.js';
export type { LanguageBuild } from './site/index.js';
export type { ItemChange } from './diff/index.js';
export type { DoneAction, LanguageReport } from './restore/index.js';
