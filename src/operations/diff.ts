import type { Settings } from '../config/index.js';
import type { DiffOptions as StageOptions, DiffReport } from '../diff/index.js';

export interface DiffOptions extends StageOptions {
  readonly settings: Settings;
}

export type DiffResult = DiffReport;

/**
 * What changed between the cache and a snapshot, a time in its kept history, or the live site
 * (`cms-mirror diff`); exactly one of `snapshot`, `since` and `live`.
 */
export async function diff(options: DiffOptions): Promise<DiffResult> {
  const stage = await import('../diff/index.js');
  const { settings, ...rest } = options;
  return stage.diff(settings, rest);
}
