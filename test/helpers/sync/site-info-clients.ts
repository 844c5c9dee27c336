import type { CmsClient } from '../../../src/client/index.js';
import { HttpError } from '../../../src/errors.js';

/**
 * Stand-ins for a CmsClient that only answer `get`: one that always fails (an HTTP status as
 * the client reports it after its retries, or any other error), one that always answers with
 * the given JSON body. For the edges of "the site has no such thing" that a reference site
 * does not answer (a 499, a body without `data`).
 */
export function refusingClient(failure: number | Error): CmsClient {
  const get = (route: string): Promise<never> =>
    Promise.reject(
      typeof failure === 'number'
        ? new HttpError({
            status: failure,
            method: 'GET',
            url: `http://site.test/pl/cms-json/${route}`,
          })
        : failure,
    );
  return { get } as unknown as CmsClient;
}

export function answeringClient(body: unknown): CmsClient {
  const get = (route: string): Promise<unknown> =>
    Promise.resolve({ status: 200, headers: {}, data: body, url: route });
  return { get } as unknown as CmsClient;
}
