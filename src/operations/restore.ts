import type { Settings } from '../config/index.js';
import type { RestoreOptions as StageOptions, RestoreReport } from '../restore/index.js';

export interface RestoreOptions extends StageOptions {
  readonly settings: Settings;
}

export type RestoreResult = RestoreReport;

/**
 * Puts content back on the site from the cache's kept history, a snapshot or a revision
 * (`cms-mirror restore`): exactly one of `items`, `deletedSince` and `asOf`.
 */
export async function restore(options: RestoreOptions): Promise<RestoreResult> {
  const stage = await import('../restore/index.js');
  const { settings, ...rest } = options;
  return stage.restore(settings, rest);
}
