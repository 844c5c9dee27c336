/**
 * Credentials never travel in clear text off this machine unless the user says so: an
 * `http:` site whose host is not loopback gets no `Authorization` header, and the command
 * stops before any connection is made. The client checks it when it is made (every command
 * that talks to a site makes one); commands that write to the cache before they connect
 * (push records edits) check it first as well, with the same function.
 */
import { InsecureTransportError } from '../errors.js';

/** `localhost`, 127.0.0.0/8 and ::1 (also as an IPv4-mapped address), as `URL#hostname` gives them. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost') return true;
  // The URL parser has already normalised `127.1`, `0x7f.0.0.1` and friends to dotted quads.
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  return host === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}

export interface TransportCheck {
  /** The site's base URL. */
  readonly site: string;
  /** Whether the command would send credentials. */
  readonly credentials: boolean;
  /** `--allow-insecure-http` or `http.allowInsecure: true`. */
  readonly allowInsecure: boolean | undefined;
}

/**
 * @throws {InsecureTransportError} `E_INSECURE_HTTP` (exit 2) when credentials would go over
 *   plain http to a host that is not loopback and the user did not opt in.
 */
export function checkCredentialTransport(check: TransportCheck): void {
  if (!check.credentials || check.allowInsecure === true) return;
  let url: URL;
  try {
    url = new URL(check.site);
  } catch {
    return; // Not a URL: the option checks report it.
  }
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return;
  throw new InsecureTransportError(url.origin);
}
