export { restore } from './run-restore.js';
export type { RestoreOptions, RestoreReport } from './run-restore.js';
export type { RestoreChoice, RestoreMode } from './restore-input.js';
export { planRestore } from './restore-plan.js';
export type {
  NewItem,
  PlanInput,
  Ref,
  RestoreAction,
  RestorePlan,
  WantedItem,
} from './restore-plan.js';
export type { DoneAction, ItemProblem, LanguageReport } from './restore-run.js';
export { relinkText } from './relink-text.js';
export type { LinkMap } from './relink-text.js';
export { formatRestore } from './format-restore.js';
