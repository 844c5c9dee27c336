import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

/** A whole response as the retry interceptor hands it over. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Receives the one, complete response the interceptor hands over and settles a promise. */
export class Collector implements Dispatcher.DispatchHandler {
  #status = 0;
  #headers: IncomingHttpHeaders = {};
  readonly #chunks: Buffer[] = [];

  constructor(
    private readonly resolve: (response: RawResponse) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  // Present so undici treats this as a controller-style handler and does not wrap it.
  onRequestStart(): void {}

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    this.#status = statusCode;
    this.#headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.resolve({
      status: this.#status,
      headers: this.#headers,
      body: Buffer.concat(this.#chunks),
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.reject(error);
  }
}
