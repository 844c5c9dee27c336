import { describe, expect, it } from 'vitest';
import type { CmsResponse, Query } from '../../../src/client/index.js';
import { HttpError } from '../../../src/errors.js';
import { FirstPages } from '../../../src/sync/first-pages.js';

/**
 * The crawl's first pages sent ahead (beside the site's checks): a stream that asks for the
 * same URL gets the answer already on its way, once; any other request goes to the site. The
 * URLs are the client's, spelled here by a stand-in client that logs what it was asked.
 */

function client(refuse?: (route: string) => boolean) {
  const asked: string[] = [];
  const url = (route: string, query: Query = {}): string =>
    `https://site.test/cms-json/${route}?${Object.entries(query)
      .map(([key, value]) => `${key}=${String(value)}`)
      .join('&')}`;
  return {
    asked,
    url,
    get: async <T>(route: string, query?: Query): Promise<CmsResponse<T>> => {
      const at = url(route, query);
      asked.push(at);
      if (refuse?.(route)) {
        throw new HttpError({ status: 401, method: 'GET', url: at, serverCode: 'rest_forbidden' });
      }
      return { status: 200, url: at, headers: {}, data: [asked.length] as T };
    },
  };
}

const PAGE: Query = { orderby: 'modified', order: 'asc', per_page: 100, page: 1 };

describe('FirstPages', () => {
  it('sends the request at once and serves its answer to the same request, once', async () => {
    const site = client();
    const pages = new FirstPages(site);
    pages.send('cms/v2/posts', PAGE);
    expect(site.asked).toEqual([site.url('cms/v2/posts', PAGE)]);
    expect(pages.waiting).toBe(1);

    const lists = pages.serving(site);
    const first = await lists.get<number[]>('cms/v2/posts', { ...PAGE });
    expect(first.data).toEqual([1]);
    expect(site.asked).toHaveLength(1);
    expect(pages.waiting).toBe(0);

    // Asked again (a second walk of the same page): a request of its own, a fresh answer.
    const again = await lists.get<number[]>('cms/v2/posts', PAGE);
    expect(again.data).toEqual([2]);
    expect(site.asked).toHaveLength(2);
  });

  it('sends any other request to the site, and keeps the one sent ahead for its own stream', async () => {
    const site = client();
    const pages = new FirstPages(site);
    pages.send('cms/v2/posts', PAGE);
    pages.send('cms/v2/pages', PAGE);
    const lists = pages.serving(site);

    // The cache moved in between (another pull): the stream starts from another cursor.
    const moved = { ...PAGE, modified_after: '2024-05-01T10:00:00' };
    const other = await lists.get<number[]>('cms/v2/posts', moved);
    expect(other.data).toEqual([3]);
    expect(site.asked.at(-1)).toBe(site.url('cms/v2/posts', moved));
    expect(pages.waiting).toBe(2);

    const pagesFirst = await lists.get<number[]>('cms/v2/pages', PAGE);
    expect(pagesFirst.data).toEqual([2]);
    expect(site.asked).toHaveLength(3);
    expect(lists.url('cms/v2/pages', PAGE)).toBe(site.url('cms/v2/pages', PAGE));
  });

  it('sends a request that waits for `after` once it resolves, and never when it rejects', async () => {
    const site = client();
    const pages = new FirstPages(site);
    let verify = (): void => undefined;
    let refuse = (_error: Error): void => undefined;
    pages.send(
      'cms/v2/posts',
      PAGE,
      new Promise<void>((resolve) => {
        verify = resolve;
      }),
    );
    const refused = new Promise<void>((_resolve, reject) => {
      refuse = reject;
    });
    pages.send('cms/v2/pages', PAGE, refused);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(site.asked).toEqual([]);

    refuse(new Error('refused credentials'));
    verify();
    const lists = pages.serving(site);
    expect((await lists.get<number[]>('cms/v2/posts', PAGE)).data).toEqual([1]);
    await expect(lists.get('cms/v2/pages', PAGE)).rejects.toThrow('refused credentials');
    expect(site.asked).toEqual([site.url('cms/v2/posts', PAGE)]);
  });

  it('leaves no unhandled rejection behind a refused request nobody reads, and hands it to a reader', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      const site = client((route) => route === 'cms/v2/posts');
      const pages = new FirstPages(site);
      pages.send('cms/v2/posts', PAGE);
      pages.send('cms/v2/media', PAGE);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);

      const read = pages.serving(site).get('cms/v2/posts', PAGE);
      await expect(read).rejects.toMatchObject({ status: 401 });
      expect(site.asked).toHaveLength(2);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
