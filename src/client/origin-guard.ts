import { UnsafeUrlError } from '../errors.js';
import { redactUrl } from './redact.js';

/**
 * Media URLs come from remote data; before fetching one, its origin must be one the caller
 * allowed, so a hostile site cannot point the client at internal hosts or file: URLs.
 */
export function checkOrigin(url: string, allowed: ReadonlySet<string>): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new UnsafeUrlError(
      redactUrl(url),
      `refusing to download ${JSON.stringify(redactUrl(url))}: not an absolute URL`,
    );
  }
  if (
    (target.protocol !== 'http:' && target.protocol !== 'https:') ||
    !allowed.has(target.origin)
  ) {
    const safe = redactUrl(target.href);
    throw new UnsafeUrlError(
      safe,
      `refusing to download ${safe}: ${target.origin} is not an allowed origin (allowed: ${[...allowed].join(', ')})`,
    );
  }
  return target;
}

export function originOf(value: string): string {
  return new URL(value).origin;
}
