export { ChangeQueue } from './change-queue.js';
export type { ChangeBatch, ChangeKind, ChangeQueueOptions } from './change-queue.js';
export { pullHook, rebuildHook } from './site-actions.js';
export type { PullHook, PullOutcome, RebuildHook, RebuildRequest } from './site-actions.js';
export { watchCheckouts } from './watch.js';
export type { WatchOptions } from './watch.js';
