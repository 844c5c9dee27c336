import { HttpError } from '../errors.js';
import type { SubOutcome } from '../push/batch-result.js';
import type { SiteSession } from '../push/site-session.js';

/** One `POST` outside a batch, answered in the shape a batch sub-response is interpreted to. */
export async function writeOne(
  session: SiteSession,
  route: string,
  body: Record<string, unknown>,
  ref: string,
  idempotent: boolean,
): Promise<SubOutcome> {
  try {
    const response = await session.client.request<Record<string, unknown>>('POST', route, {
      body,
      idempotent,
    });
    return { ref, ok: true as const, status: response.status, item: response.data };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return {
      ref,
      ok: false as const,
      status: error.status,
      code: error.serverCode ?? `http_${error.status}`,
      message: error.serverMessage ?? error.message,
      notRun: false,
    };
  }
}
