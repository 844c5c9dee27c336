import type { BatchRequest, BatchResult, BatchValidation } from '../client/index.js';
import { HttpError } from '../errors.js';
import type { BatchChunk } from './batch-planner.js';
import type { SiteSession } from './site-session.js';

/**
 * One chunk through `POST batch/v1`; when the site does not allow a route in a batch, its
 * requests go one by one and their answers are assembled into the same shape.
 */
export async function sendChunk(
  session: SiteSession,
  chunk: BatchChunk,
  validation: BatchValidation,
): Promise<{ result: BatchResult; batchCalls: number }> {
  const batchable = chunk.requests.every((request) =>
    session.index.allowsBatch(request.path.replace(/^\//, ''), request.method ?? 'POST'),
  );
  if (batchable) {
    // A batch of updates and trashes can be repeated harmlessly; one with creates cannot.
    const idempotent = chunk.requests.every((request) => /\/\d+$/.test(request.path));
    return {
      result: await session.client.batch(chunk.requests, validation, { idempotent }),
      batchCalls: 1,
    };
  }
  const responses = [];
  for (const request of chunk.requests) responses.push(await sendOne(session, request));
  return { result: { failed: null, responses }, batchCalls: 0 };
}

async function sendOne(session: SiteSession, request: BatchRequest) {
  try {
    const response = await session.client.request<unknown>(request.method ?? 'POST', request.path, {
      ...(request.body === undefined ? {} : { body: request.body }),
    });
    return { status: response.status, body: response.data, headers: {} };
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, body: error.body, headers: {} };
    throw error;
  }
}
