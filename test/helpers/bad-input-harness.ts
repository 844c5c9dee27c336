/**
 * Small pieces the bad-input and security tests share: tiny node:http servers on 127.0.0.1
 * that play a site that is not one (HTML, 404, wrong namespaces), a proxy in front of the
 * reference site that replaces chosen answers, and digests that prove a cache or an output
 * tree did not change.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';

export interface TinyServer {
  /** `http://127.0.0.1:{port}`, no trailing slash. */
  readonly url: string;
  /** Paths (with query) of every request served, in order. */
  readonly paths: string[];
  close(): Promise<void>;
}

/** Starts `handler` on a free port of 127.0.0.1. */
export function startTinyServer(handler: http.RequestListener): Promise<TinyServer> {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    handler(req, res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        paths,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** What a proxy answers instead of the upstream, or undefined to pass the request on. */
export type Replacement =
  | {
      readonly status?: number;
      readonly contentType: string;
      readonly body: Buffer | string;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | undefined;

/**
 * A proxy in front of `upstream` (GET/HEAD/POST, Authorization passed on) that answers with
 * `replace(path)` where it returns one. Lets a test break one route of an otherwise real site.
 */
export function startProxy(
  upstream: string,
  replace: (path: string, method: string) => Replacement,
): Promise<TinyServer> {
  return startTinyServer((req, res) => {
    const path = req.url ?? '/';
    const replacement = replace(path, req.method ?? 'GET');
    if (replacement !== undefined) {
      res.writeHead(replacement.status ?? 200, {
        ...replacement.headers,
        'content-type': replacement.contentType,
      });
      res.end(replacement.body);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'content-disposition']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      fetch(`${upstream}${path}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body !== undefined && req.method !== 'GET' && req.method !== 'HEAD' ? { body } : {}),
      })
        .then(async (answer) => {
          const bytes = Buffer.from(await answer.arrayBuffer());
          const out: Record<string, string> = {};
          answer.headers.forEach((value, name) => {
            // fetch already decoded and de-chunked the body.
            if (
              !['content-length', 'transfer-encoding', 'content-encoding', 'connection'].includes(
                name,
              )
            )
              out[name] = value;
          });
          res.writeHead(answer.status, out);
          res.end(bytes);
        })
        .catch(() => {
          res.destroy();
        });
    });
  });
}

/**
 * sha256 over every row of `items` (all columns, in key order): any item lost, added or
 * rewritten changes it. The cache is opened read-only so the digest itself changes nothing.
 */
export function itemsDigest(cacheFile: string): string {
  const db = new Database(cacheFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT * FROM items ORDER BY lang, type, id').all();
    return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
  } finally {
    db.close();
  }
}

/** Number of rows in `items` (to show a digest is over real content, not an empty table). */
export function itemsCount(cacheFile: string): number {
  const db = new Database(cacheFile, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Every file (and symlink target) under `root` with its sha256, keyed by relative path. */
export function treeDigest(root: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(root)) return files;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      const key = relative(root, full);
      if (entry.isSymbolicLink()) files.set(key, `-> ${readlinkSync(full)}`);
      else if (entry.isDirectory()) walk(full);
      else files.set(key, createHash('sha256').update(readFileSync(full)).digest('hex'));
    }
  };
  if (lstatSync(root).isDirectory()) walk(root);
  return files;
}

/** Every regular file under `root`, as absolute paths. */
export function listFiles(root: string): string[] {
  return [...treeDigest(root).keys()].map((key) => join(root, key));
}
