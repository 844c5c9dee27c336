/**
 * The crawl's first page of each collection, asked for while the site's checks are in flight.
 * A no-op pull otherwise waits for three answers in a row (the index, the checks, the crawl);
 * with the first pages sent beside the checks it waits for two, and the cache is opened and
 * read while the site answers both. An answer is only read by its stream, after the checks
 * have passed: nothing the site says is stored before they do.
 *
 * The collection whose total checks the credentials sends its page only once that check has
 * passed: a refused password costs the site no crawl request there, and a site failing that
 * request is not asked twice as often.
 *
 * A stream whose first request differs from the one sent (the cache moved in between: another
 * process pulled) sends its own; the one sent ahead is then a request too many, never a wrong
 * page.
 */
import type { CmsClient, CmsResponse, Query } from '../client/index.js';
import type { ListClient } from './crawl-budget.js';

export class FirstPages {
  readonly #client: Pick<CmsClient, 'get' | 'url'>;
  /** Answers sent ahead and not yet taken, by URL. */
  readonly #sent = new Map<string, Promise<CmsResponse<unknown>>>();

  constructor(client: Pick<CmsClient, 'get' | 'url'>) {
    this.#client = client;
  }

  /**
   * Sends the request now (or once `after` resolves; never if it rejects); its answer waits
   * for the stream that asks for the same URL.
   */
  send(route: string, query: Query, after?: Promise<unknown>): void {
    const answer = after
      ? after.then(() => this.#client.get<unknown>(route, query))
      : this.#client.get<unknown>(route, query);
    // Read later, or never (the checks failed): a refusal is not an unhandled rejection.
    answer.catch(() => undefined);
    this.#sent.set(this.#client.url(route, query), answer);
  }

  /** How many requests were sent ahead and not taken yet. */
  get waiting(): number {
    return this.#sent.size;
  }

  /** `client` answering a request sent ahead from its answer, once, and any other as usual. */
  serving(client: ListClient & Pick<CmsClient, 'url'>): ListClient & Pick<CmsClient, 'url'> {
    return {
      url: (route, query) => client.url(route, query),
      get: <T>(route: string, query?: Query): Promise<CmsResponse<T>> => {
        const url = client.url(route, query);
        const answer = this.#sent.get(url);
        if (answer === undefined) return client.get<T>(route, query);
        this.#sent.delete(url);
        return answer as Promise<CmsResponse<T>>;
      },
    };
  }
}
