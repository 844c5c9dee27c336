export { ChangeQueue } from './change-queue.js';
export type { ChangeBatch, ChangeKind, ChangeQueueOptions } from './change-queue.js';
export { watchCheckouts } from './watch.js';
export type { WatchOptions } from './watch.js';
