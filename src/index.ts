/** The public library API: what the CLI uses, nothing more. Re-exports only. */
export { backupCache, pull, status, verify } from './sync/index.js';
export type {
  CacheStatus,
  CollectionStatus,
  PullCounters,
  PullEvent,
  PullOptions,
  PullSummary,
  VerifyDifference,
  VerifyReport,
} from './sync/index.js';
