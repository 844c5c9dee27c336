import { startTestServer, type TestServer } from '../test-server.js';

/** A file the scripted file server serves, or what it answers instead. */
export interface ServedFile {
  readonly status?: number;
  readonly body?: Buffer;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A file server on 127.0.0.1 (an origin of its own, as a CDN is) answering each path from
 * `files` (404 otherwise): for answers the reference site does not give (410, no
 * Content-Type or ETag, a redirect). `requests` records what was asked.
 */
export function startFileServer(files: Readonly<Record<string, ServedFile>>): Promise<TestServer> {
  return startTestServer((request, response) => {
    const file = files[new URL(request.url, 'http://x').pathname];
    if (file === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    response.writeHead(file.status ?? 200, { ...file.headers });
    response.end(file.body ?? Buffer.alloc(0));
  });
}
