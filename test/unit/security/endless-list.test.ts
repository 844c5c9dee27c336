/**
 * A server that ignores `per_page` (and `page`) would keep a page walk going forever. The
 * client refuses a list page longer than the `per_page` it asked for, naming the URL.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CmsClient } from '../../../src/client/index.js';
import { SiteError } from '../../../src/errors.js';
import { startTinyServer, type TinyServer } from '../../helpers/bad-input-harness.js';

describe('CmsClient.listPage against a server that ignores per_page', () => {
  let server: TinyServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('refuses a page with more items than per_page; accepts exactly per_page', async () => {
    server = await startTinyServer((req, res) => {
      const count = (req.url ?? '').includes('per_page=5') ? 5 : 50;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(Array.from({ length: count }, (_, i) => ({ id: i + 1 }))));
    });
    const client = new CmsClient({ site: server.url, lang: 'pl', retries: 0 });
    try {
      const error = await client
        .listPage('cms/v2/posts', { per_page: 10, page: 1 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SiteError);
      expect((error as SiteError).exitCode).toBe(2);
      expect((error as SiteError).message).toMatch(
        new RegExp(
          `^${server.url}/pl/cms-json/cms/v2/posts\\?\\S+ answered 50 items where per_page=10 allows 10`,
        ),
      );
      const page = await client.listPage('cms/v2/posts', { per_page: 5, page: 1 });
      expect(page.items).toHaveLength(5);
    } finally {
      await client.close();
    }
  });
});
