import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

/**
 * The `yaml` package, loaded on first use: a pipeline file that `readPlainYaml` reads does not
 * need it (~35 ms of a no-op `run`'s CPU; test/bench/RESULTS.md, i-noop6). Synchronous, so
 * `resolveSettings` stays synchronous. The bundled CLI replaces this module with one that
 * requires `dist/cli/yaml.cjs`, the package bundled into one file (scripts/bundle-cli.mjs):
 * the package's own ~70 files took ~120 ms to require.
 */
export function yamlModule(): typeof Yaml {
  return createRequire(import.meta.url)('yaml') as typeof Yaml;
}
