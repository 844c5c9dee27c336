import { afterEach, beforeEach } from 'vitest';
import { CmsClient } from '../../../src/client/index.js';

interface SiteFixture {
  readonly site: { readonly url: string; readonly credentials: { user: string; password: string } };
}

/**
 * Real clients of a test's reference site (`useSite`), unpaced and without retries so that a
 * test sees each answer once; every client a test made is closed after it.
 */
export function useSiteClients(fixture: SiteFixture): (auth?: boolean) => CmsClient {
  let clients: CmsClient[] = [];
  beforeEach(() => {
    clients = [];
  });
  afterEach(async () => {
    await Promise.all(clients.map((client) => client.close()));
  });
  return (auth = false) => {
    const { site } = fixture;
    const made = new CmsClient({
      site: site.url,
      lang: 'pl',
      requestsPerSecond: 0,
      retries: 0,
      ...(auth ? { auth: site.credentials } : {}),
    });
    clients.push(made);
    return made;
  };
}
