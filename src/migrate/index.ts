export { migrate } from './migrate.js';
export type { MigrateOptions, MigrateReport } from './migrate.js';
export { formatPlan, orderParentsFirst, planMigration } from './planner.js';
export type { MigrateType, MigrationPlan, PlanStep, SourceItem } from './planner.js';
export { CONFLICT_POLICIES, STOPPED_HINT, formatConflict } from './conflicts.js';
export type { ConflictPolicy, MigrateConflict } from './conflicts.js';
export type { SeoReport } from './seo.js';
