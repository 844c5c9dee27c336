/**
 * A small static file server for looking at built sites (`cms-mirror serve`) and for the
 * browser tests. It serves the whole output directory, so the language switcher between
 * sibling `pl/` and `es/` sites works. Loopback only by default; never serves outside `root`,
 * not even through a symlink inside it.
 */
import { createReadStream, promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { STATE_DIR } from './output-switch.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.wasm': 'application/wasm',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** @default host '127.0.0.1', port 0 (a free port) */
export async function startStaticServer(
  root: string,
  options: { host?: string; port?: number } = {},
): Promise<StaticServer> {
  // Symlinks are resolved before the "inside root" check, so the root is compared resolved too.
  const base = await fs.realpath(path.resolve(root)).catch(() => path.resolve(root));
  const server = http.createServer((request, response) => {
    serve(base, request.url ?? '/', response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function serve(base: string, rawUrl: string, response: http.ServerResponse): Promise<void> {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(rawUrl, 'http://x').pathname);
  } catch {
    response.writeHead(400).end();
    return;
  }
  const file = await existingFile(base, pathname);
  if (file !== undefined) {
    send(response, 200, file);
    return;
  }
  // Each language has its own 404 page: /pl/anything → pl/404.html.
  const lang = pathname.split('/').filter(Boolean)[0];
  const notFound = lang ? await existingFile(base, `/${lang}/404.html`) : undefined;
  if (notFound !== undefined) send(response, 404, notFound);
  else response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
}

async function existingFile(base: string, pathname: string): Promise<string | undefined> {
  if (pathname.includes('\0')) return undefined;
  // The build's staging, journals and stamps are its own, not part of any site.
  if (pathname.split('/').filter(Boolean)[0] === STATE_DIR) return undefined;
  const target = path.resolve(base, `.${pathname}`);
  if (!isInside(base, target)) return undefined;
  for (const candidate of [target, path.join(target, 'index.html')]) {
    // A symlink inside the output may point anywhere: serve only what resolves inside it.
    const real = await fs.realpath(candidate).catch(() => undefined);
    if (real === undefined || !isInside(base, real)) continue;
    const stat = await fs.stat(real).catch(() => undefined);
    if (stat?.isFile()) return real;
  }
  return undefined;
}

function isInside(base: string, target: string): boolean {
  return target === base || target.startsWith(`${base}${path.sep}`);
}

function send(response: http.ServerResponse, status: number, file: string): void {
  const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  response.writeHead(status, { 'content-type': type });
  createReadStream(file).pipe(response);
}
