import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a test server saw of one request. */
export interface SeenRequest {
  readonly method: string;
  /** Path and query as sent. */
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

export interface TestServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly url: string;
  readonly requests: SeenRequest[];
  close(): Promise<void>;
}

export type TestHandler = (
  request: SeenRequest,
  response: ServerResponse,
  index: number,
  raw: IncomingMessage,
) => unknown;

/**
 * A node:http server on 127.0.0.1:0 that answers exactly what a test needs. `index` counts
 * requests from 0, so a handler can fail the first n and then succeed.
 */
export async function startTestServer(handler: TestHandler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((raw, response) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const seen: SeenRequest = {
        method: raw.method ?? '',
        url: raw.url ?? '',
        headers: raw.headers,
        body: Buffer.concat(chunks),
      };
      const index = requests.push(seen) - 1;
      Promise.resolve(handler(seen, response, index, raw)).catch((error: unknown) => {
        response.statusCode = 599;
        response.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON answer with a correct Content-Length. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=UTF-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** A server error body shaped as the interface sends it. */
export function restError(code: string, message: string, status: number): unknown {
  return { code, message, data: { status } };
}

/** Sleep() that records what it was asked to wait and returns at once. */
export function recordingSleep(): { delays: number[]; sleep: (ms: number) => Promise<void> } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms: number) => {
      delays.push(ms);
    },
  };
}
