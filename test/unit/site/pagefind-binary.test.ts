/**
 * Pagefind's executable is found as Pagefind's own Node API finds it: a path the environment
 * names first, then the platform package, the extended build before the plain one; with none
 * installed, an `E_SEARCH_INDEX` naming the package to install.
 */
import { describe, expect, it } from 'vitest';
import { pagefindBinary } from '../../../src/site/pagefind-binary.js';

const platform = process.platform === 'win32' ? 'windows' : process.platform;

/** A resolver that knows only `installed` (package paths), answering `/nm/<path>`. */
const knowing =
  (...installed: string[]) =>
  (request: string): string => {
    if (!installed.includes(request)) throw new Error(`not found: ${request}`);
    return `/nm/${request}`;
  };

describe('pagefindBinary', () => {
  it('takes a path the environment names, the extended build first', () => {
    const resolve = knowing();
    expect(pagefindBinary({ PAGEFIND_BINARY_PATH: '/opt/pf' }, [resolve])).toBe('/opt/pf');
    expect(
      pagefindBinary(
        { PAGEFIND_BINARY_PATH: '/opt/pf', PAGEFIND_EXTENDED_BINARY_PATH: '/opt/pfx' },
        [resolve],
      ),
    ).toBe('/opt/pfx');
  });

  it('prefers the extended build, looked for wherever it is, to the plain one', () => {
    const plain = `@pagefind/${platform}-x64/bin/pagefind`;
    const extended = `@pagefind/${platform}-x64/bin/pagefind_extended`;
    const env = { npm_config_arch: 'x64' };
    expect(pagefindBinary(env, [knowing(plain), knowing(extended)])).toBe(`/nm/${extended}`);
    expect(pagefindBinary(env, [knowing(plain)])).toBe(`/nm/${plain}`);
  });

  it('fails with E_SEARCH_INDEX naming the platform package when none is installed', () => {
    expect(() => pagefindBinary({ npm_config_arch: 'x64' }, [knowing()])).toThrow(
      expect.objectContaining({
        code: 'E_SEARCH_INDEX',
        message: expect.stringContaining(`@pagefind/${platform}-x64`),
      }),
    );
  });

  it('finds the installed executable by default', () => {
    expect(pagefindBinary({})).toMatch(/pagefind(_extended)?(\.exe)?$/);
  });
});
