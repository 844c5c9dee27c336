/**
 * The public library API: the operations the CLI runs, as typed functions. Re-exports only.
 */
export { resolveSettings, requireSite, credentialsFromEnv } from './config/settings.js';
export type { CommonFlags, Credentials, Settings } from './config/settings.js';
export { loadPipelineFile } from './config/load-pipeline.js';
export { pipelineText, writePipelineFile } from './config/pipeline-writer.js';
export * from './errors.js';

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

export { runBuild } from './site/run-build.js';
export type { BuildSummary, LanguageBuild, RunBuildOptions } from './site/run-build.js';
export { startStaticServer } from './site/static-server.js';
export type { StaticServer } from './site/static-server.js';

export { checkout, runPush, migrate } from './push/index.js';
export type {
  CheckoutOptions,
  CheckoutSummary,
  MigrateOptions,
  MigrateReport,
  RunPushOptions,
  RunPushReport,
} from './push/index.js';
export { watchCheckouts, parseDuration } from './watch/index.js';
export type { WatchOptions } from './watch/index.js';

export { diff } from './diff/index.js';
export type { DiffOptions, DiffReport, ItemChange } from './diff/index.js';

export { openStore } from './store/index.js';
export type { Store } from './store/index.js';
