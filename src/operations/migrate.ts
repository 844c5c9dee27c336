import type { Settings } from '../config/index.js';
import { ConfigError } from '../errors.js';
import type { MigrateOptions as StageOptions, MigrateReport } from '../migrate/index.js';

export interface MigrateOptions extends Omit<
  StageOptions,
  'to' | 'credentials' | 'credentialNames' | 'http'
> {
  /** The target: its site, HTTP settings and credentials (settings.site is the target's URL). */
  readonly settings: Settings;
}

export type MigrateResult = MigrateReport;

/** Re-creates one language of a cache on another site, ids and URLs remapped (`cms-mirror migrate`). */
export async function migrate(options: MigrateOptions): Promise<MigrateResult> {
  const stage = await import('../migrate/index.js');
  const { settings, ...rest } = options;
  if (settings.site === undefined)
    throw new ConfigError('no target site: give --to URL or "site:" in the pipeline file', {
      field: 'site',
    });
  return stage.migrate({
    ...rest,
    to: settings.site,
    credentials: settings.credentials,
    credentialNames: settings.credentialNames,
    http: settings.http,
  });
}
