export { diff } from './run-diff.js';
export type { DiffOptions, DiffReport } from './run-diff.js';
export { planDiff, changeOf } from './diff-plan.js';
export type { ChangeKind, ItemChange, RemovedMedia, TextChange } from './diff-plan.js';
export { lineDiff, changedHunks } from './line-diff.js';
export type { DiffLine, LineOp } from './line-diff.js';
export { formatDiff } from './format-diff.js';
