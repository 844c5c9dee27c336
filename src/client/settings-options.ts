import type { Settings } from '../config/settings.js';
import type { ClientOptions } from './options.js';

/** Client options for one language of a pipeline: its site, credentials and `http` settings. */
export function clientOptionsFor(
  settings: Pick<Settings, 'credentials' | 'http'>,
  site: string,
  lang: string,
): ClientOptions {
  return {
    site,
    lang,
    auth: settings.credentials,
    concurrency: settings.http.concurrency,
    requestsPerSecond: settings.http.requestsPerSecond,
    timeoutMs: settings.http.timeoutMs,
    retries: settings.http.retries,
    maxBodyBytes: settings.http.maxBodyBytes,
    retryAfterMaxMs: settings.http.retryAfterMaxMs,
    allowInsecure: settings.http.allowInsecure,
  };
}
