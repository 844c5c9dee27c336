import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BODY_BYTES, resolveClientOptions } from '../../../src/client/index.js';
import { ConfigError } from '../../../src/errors.js';

describe('resolveClientOptions', () => {
  it('fills the documented defaults and derives the API root', () => {
    const options = resolveClientOptions({ site: 'http://127.0.0.1:8787/', lang: 'pl' });
    expect(options).toMatchObject({
      site: 'http://127.0.0.1:8787',
      apiRoot: 'http://127.0.0.1:8787/pl/cms-json/',
      concurrency: 6,
      requestsPerSecond: 20,
      timeoutMs: 30_000,
      retries: 5,
      retryBaseMs: 250,
      retryMaxMs: 10_000,
      retryAfterMaxMs: 60_000,
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
      auth: undefined,
    });
    expect(DEFAULT_MAX_BODY_BYTES).toBe(64 * 1024 * 1024);
    expect(resolveClientOptions({ site: 'https://example.test/blog', lang: 'es' }).apiRoot).toBe(
      'https://example.test/blog/es/cms-json/',
    );
  });

  it('reports every problem at once, saying what was expected and what was got', () => {
    let error: unknown;
    try {
      resolveClientOptions({
        site: 'ftp://example.test',
        lang: 'p l',
        concurrency: 0,
        requestsPerSecond: -1,
        retries: 1.5,
        timeoutMs: Number.NaN,
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('site: expected an http: or https: URL, got ftp:');
    expect(message).toContain('lang: expected a language path segment such as "pl", got "p l"');
    expect(message).toContain('concurrency: expected an integer from 1 to 256, got 0');
    expect(message).toContain('requestsPerSecond: expected a number from 0 to 10000, got -1');
    expect(message).toContain('retries: expected an integer from 0 to 100, got 1.5');
    expect(message).toContain('timeoutMs: expected an integer from 1 to 3600000, got NaN');
    expect((error as ConfigError).exitCode).toBe(2);
  });

  it('refuses unusable credentials without echoing the password', () => {
    expect(() =>
      resolveClientOptions({
        site: 'https://h',
        lang: 'pl',
        auth: { user: 'a:b', password: 'topsecret' },
      }),
    ).toThrow(/auth\.user/);
    try {
      resolveClientOptions({
        site: 'https://h',
        lang: 'pl',
        auth: { user: '', password: 'topsecret' },
      });
    } catch (error) {
      expect((error as Error).message).not.toContain('topsecret');
    }
  });
});
