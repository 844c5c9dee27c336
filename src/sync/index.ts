export { pull } from './pull.js';
export type { PullOptions } from './pull.js';
export { status } from './cache-status.js';
export type { CacheStatus, CollectionStatus } from './cache-status.js';
export { verify } from './verify.js';
export type { VerifyCollection, VerifyDifference, VerifyOptions, VerifyReport } from './verify.js';
export { backupCache } from './backup-cache.js';
export { emptyCounters, sumCounters } from './pull-summary.js';
export type {
  CounterName,
  PullCounters,
  PullEvent,
  PullPhase,
  PullSummary,
} from './pull-summary.js';
export type { PullMode } from './collections.js';
