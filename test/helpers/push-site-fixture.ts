import { CmsClient } from '../../src/client/index.js';
import { openStore, type Store } from '../../src/store/index.js';

/**
 * Copies one language (with media binaries when asked) of a site into a cache the simple way (every item, `context=edit`),
 * so the push tests do not depend on the pull stage: they test push, not the crawler.
 */
export async function mirrorLanguage(
  site: { url: string; credentials: { user: string; password: string } },
  lang: string,
  store: Store,
  options: { media?: boolean } = {},
): Promise<void> {
  const client = new CmsClient({
    site: site.url,
    lang,
    auth: site.credentials,
    requestsPerSecond: 0,
    retries: 0,
  });
  try {
    const index = await client.get<Record<string, unknown>>('');
    // The shape the pull stores: the index summary plus the seo/v1 configuration state.
    const seo = await client.get<{ data: unknown }>('seo/v1/configuration/get_configuration_state');
    store.siteInfo.set(lang, {
      url: index.data.url,
      home: index.data.home,
      name: index.data.name,
      seo: seo.data.data,
    });
    const types = options.media
      ? (['posts', 'pages', 'media'] as const)
      : (['posts', 'pages'] as const);
    for (const type of types) {
      const status =
        type === 'media'
          ? ['inherit', 'private']
          : ['publish', 'future', 'draft', 'pending', 'private'];
      for await (const page of client.paginate<{ id: number }>(`cms/v2/${type}`, {
        per_page: 100,
        context: 'edit',
        status,
        orderby: 'id',
        order: 'asc',
      })) {
        store.items.upsertPage(lang, type, page.items, { context: 'edit' });
        if (type !== 'media') continue;
        for (const item of page.items as { id: number; source_url?: string }[]) {
          if (typeof item.source_url !== 'string') continue;
          const download = await client.download(item.source_url);
          const blob = store.media.putBlob(download.data, download.sha256);
          store.media.setFile({
            url: item.source_url,
            sha256: blob.sha256,
            lang,
            mediaId: item.id,
          });
        }
      }
    }
  } finally {
    await client.close();
  }
}

/** `mirrorLanguage` into the cache file `file`, opened and closed here. */
export async function mirrorLanguageInto(
  site: { url: string; credentials: { user: string; password: string } },
  lang: string,
  file: string,
  options: { media?: boolean } = {},
): Promise<void> {
  const store = openStore(file);
  try {
    await mirrorLanguage(site, lang, store, options);
  } finally {
    store.close();
  }
}

/** A client of the site with the given credentials (the test's own requests). */
export function siteClient(
  url: string,
  lang: string,
  auth: { user: string; password: string },
): CmsClient {
  return new CmsClient({ site: url, lang, auth, requestsPerSecond: 0, retries: 0 });
}
