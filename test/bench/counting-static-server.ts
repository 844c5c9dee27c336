/**
 * A static server for benchmarks that need to know what a page fetched: it serves a folder on
 * 127.0.0.1 and records every response (path, bytes, when it started and ended), whoever asked
 * (the page, or a web worker the browser reports nowhere else). A path may be answered from
 * another file (`overrides`), so a built site can be tried with a changed script without being
 * copied or modified. Each answer may be held back (`latencyMs`, a network's round trip), and
 * Pagefind's gzip files may be sent as `Content-Encoding: gzip` (`gzipEncoding`), as a host
 * that serves them so does: the browser then inflates them, not Pagefind's JavaScript.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface Served {
  /** URL path without the query (`/pl/pagefind/s3/pagefind-entry.json`). */
  path: string;
  status: number;
  bytes: number;
  /** Milliseconds since `reset()` (or the start). */
  startMs: number;
  endMs: number;
}

export interface CountingServer {
  url: string;
  /** Everything answered since the last `reset()`. */
  served(): readonly Served[];
  reset(): void;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

export interface CountingServerOptions {
  /** URL paths answered from another file. @default none */
  overrides?: ReadonlyMap<string, string>;
  /** Milliseconds each answer waits before it is sent. @default 0 */
  latencyMs?: number;
  /** Send Pagefind's gzip files (`.pf_meta`, `.pf_index`, ...) as `Content-Encoding: gzip`. @default false */
  gzipEncoding?: boolean;
}

/** Pagefind's files that are gzip streams (its entry JSON and scripts are not). */
const PAGEFIND_GZIP = /\.(pf_meta|pf_index|pf_fragment|pf_filter|pagefind)$/;

export async function startCountingServer(
  root: string,
  options: CountingServerOptions = {},
): Promise<CountingServer> {
  const overrides = options.overrides ?? new Map<string, string>();
  const base = path.resolve(root);
  let log: Served[] = [];
  let origin = performance.now();
  const server = http.createServer((request, response) => {
    const startMs = performance.now() - origin;
    const urlPath = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    let file = overrides.get(urlPath) ?? path.join(base, urlPath);
    if (!file.startsWith(base) && !overrides.has(urlPath)) file = '';
    if (file.endsWith('/')) file += 'index.html';
    fs.readFile(file, (error, body) => {
      const status = error ? 404 : 200;
      const headers: Record<string, string> = {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
      };
      if (!error && options.gzipEncoding && PAGEFIND_GZIP.test(file)) {
        headers['content-encoding'] = 'gzip';
      }
      setTimeout(() => {
        response.writeHead(status, headers);
        response.end(error ? undefined : body, () => {
          const bytes = error ? 0 : body.length;
          log.push({ path: urlPath, status, bytes, startMs, endMs: performance.now() - origin });
        });
      }, options.latencyMs ?? 0);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    served: () => log,
    reset: () => {
      log = [];
      origin = performance.now();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
