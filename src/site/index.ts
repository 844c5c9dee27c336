/** The site stage's entry point: what the operations and the CLI may reach. */
export { runBuild } from './run-build.js';
export type { BuildSummary, LanguageBuild, LanguagePhases } from './build-summary.js';
export type { RunBuildOptions } from './run-build.js';
export { keptBuildWorkers } from './build-workers.js';
export type { BuildWorkers, KeptBuildWorkers } from './build-workers.js';
