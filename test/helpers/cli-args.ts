import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReferenceSite } from './reference.js';
import type { TempCache } from './temp-cache.js';

/**
 * Command lines and environments for CLI runs that several tests (in-process and child
 * process) make against the reference site, so each is spelled once.
 */

/** The environment that gives the CLI `site`'s credentials (a reference site, in-process or not). */
export function credentialEnv(site: {
  readonly credentials: { readonly user: string; readonly password: string };
}): NodeJS.ProcessEnv {
  return { CMS_USER: site.credentials.user, CMS_APP_PASSWORD: site.credentials.password };
}

/** Writes `pipeline.yaml` without client-side pacing into `dir` (tests must not wait on the rate limit); returns its path. */
export function unpacedPipeline(dir: string): string {
  const pipeline = join(dir, 'pipeline.yaml');
  writeFileSync(pipeline, 'http:\n  requestsPerSecond: 0\n');
  return pipeline;
}

/**
 * `pull --json` of `pl,es` of `site` into `temp.file`, unpaced (writes the pipeline file into
 * `temp.dir`), with `--backup` when asked.
 */
export function pullArgs(
  site: ReferenceSite,
  temp: TempCache,
  options: { backup: boolean },
): string[] {
  return [
    'pull',
    '--pipeline',
    unpacedPipeline(temp.dir),
    '--site',
    site.url,
    '--lang',
    'pl,es',
    '--cache',
    temp.file,
    ...(options.backup ? ['--backup'] : []),
    '--json',
  ];
}

/** `migrate` of language `lang` from the cache `cache` into the same language of `target`. */
export function migrateArgs(cache: string, target: ReferenceSite, lang = 'pl'): string[] {
  return [
    'migrate',
    '--from-cache',
    cache,
    '--from-lang',
    lang,
    '--to',
    target.url,
    '--to-lang',
    lang,
  ];
}
