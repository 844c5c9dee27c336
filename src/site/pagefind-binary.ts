/**
 * Where Pagefind's executable is, found as Pagefind's own Node API finds it (its
 * `resolveBinary.js`, which its package does not export): a path named by the environment
 * first, then the platform package that `pagefind` installs as its optional dependency, the
 * extended build (with the CJK segmenters) before the plain one. The platform package is looked
 * for from `pagefind`'s own files first (where a package manager may have nested it), then
 * from ours.
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import { SearchIndexError } from '../errors.js';

/** The executables tried, best first. */
const EXECUTABLES = ['pagefind_extended', 'pagefind'] as const;

/**
 * The path of Pagefind's executable.
 *
 * @throws {SearchIndexError} `E_SEARCH_INDEX` when no executable for this platform is installed.
 */
export function pagefindBinary(
  env: NodeJS.ProcessEnv = process.env,
  resolvers: readonly ((request: string) => string)[] = defaultResolvers(),
): string {
  for (const name of EXECUTABLES) {
    const named = env[`${name.toUpperCase()}_BINARY_PATH`];
    if (named) return named;
  }
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const arch = env.npm_config_arch || os.arch();
  const suffix = platform === 'windows' ? '.exe' : '';
  for (const name of EXECUTABLES) {
    for (const resolve of resolvers) {
      try {
        return resolve(`@pagefind/${platform}-${arch}/bin/${name}${suffix}`);
      } catch {
        // Not there: the next place, or the next executable.
      }
    }
  }
  throw new SearchIndexError(
    `Pagefind has no executable installed for ${platform}-${arch} (@pagefind/${platform}-${arch}); reinstall the package's dependencies`,
  );
}

/** `require.resolve` from `pagefind`'s entry file (when it can be found), then from this file. */
function defaultResolvers(): ((request: string) => string)[] {
  const resolvers = [createRequire(import.meta.url).resolve];
  try {
    resolvers.unshift(createRequire(import.meta.resolve('pagefind')).resolve);
  } catch {
    // `pagefind` not found from here, or no `import.meta.resolve` (a test's loader): ours only.
  }
  return resolvers;
}
