export {
  resolveSettings,
  requireSite,
  credentialsFromEnv,
  DEFAULT_CACHE,
  DEFAULT_OUTPUT,
} from './settings.js';
export type { CommonFlags, Credentials, Settings, Translations } from './settings.js';
export { loadPipelineFile } from './load-pipeline.js';
export type { HttpSettings, PipelineFile } from './pipeline-schema.js';
export { existsError, pipelineText, writePipelineFile } from './pipeline-writer.js';
export type { PipelineTextOptions, WritePipelineOptions } from './pipeline-writer.js';
