import { renderExcerpt, homeUrl, itemLink, stripTags, uploadsUrl } from './render.js';
import { formatGmt } from './site-dates.js';
import type { SiteState } from './site-state.js';
import type { LangStore, StoredItem } from './store.js';

/**
 * `seo_head_json` of a post or page: the head metadata and schema.org graph a search-engine
 * plug-in adds, built from the current `seo/v1` site representation (so changing the
 * representation through the configuration routes shows up on every item).
 */
export function seoHeadJson(
  site: SiteState,
  store: LangStore,
  item: StoredItem,
): Record<string, unknown> {
  const { settings } = store;
  const home = homeUrl(site.base, settings.lang);
  const link = itemLink(store, site.base, item);
  const title = stripTags(item.title);
  const description = item.password === '' ? stripTags(renderExcerpt(item, 30)).slice(0, 155) : '';
  const language = settings.locale.replace('_', '-');
  const author = site.users.find((user) => user.id === item.author);
  const featured = item.featuredMedia ? store.getItem('attachment', item.featuredMedia) : undefined;
  const published = `${formatGmt(item.dateGmt)}+00:00`;
  const modified = `${formatGmt(item.modifiedGmt)}+00:00`;
  const head: Record<string, unknown> = {
    title: `${title} - ${settings.name}`,
    description,
    robots: {
      index: 'index',
      follow: 'follow',
      'max-snippet': 'max-snippet:-1',
      'max-image-preview': 'max-image-preview:large',
      'max-video-preview': 'max-video-preview:-1',
    },
    canonical: link,
    og_locale: settings.locale,
    og_type: item.type === 'post' ? 'article' : 'website',
    og_title: title,
    og_description: description,
    og_url: link,
    og_site_name: settings.name,
    article_published_time: published,
    article_modified_time: modified,
  };
  if (featured?.media) {
    head.og_image = [
      {
        width: featured.media.width,
        height: featured.media.height,
        url: uploadsUrl(site.base, settings.lang, featured.media.file),
        type: featured.media.mimeType,
      },
    ];
  }
  if (author) head.author = author.name;
  head.twitter_card = 'summary_large_image';
  head.schema = {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'WebPage',
        '@id': link,
        url: link,
        name: head.title,
        isPartOf: { '@id': `${home}#website` },
        datePublished: published,
        dateModified: modified,
        description,
        inLanguage: language,
      },
      websiteNode(site, store),
      representationNode(site, store),
    ],
  };
  return head;
}

export function websiteNode(site: SiteState, store: LangStore): Record<string, unknown> {
  const home = homeUrl(site.base, store.settings.lang);
  return {
    '@type': 'WebSite',
    '@id': `${home}#website`,
    url: home,
    name: store.settings.name,
    description: store.settings.description,
    publisher: { '@id': representationId(site, store) },
    inLanguage: store.settings.locale.replace('_', '-'),
  };
}

function representationId(site: SiteState, store: LangStore): string {
  const home = homeUrl(site.base, store.settings.lang);
  const rep = store.seo.siteRepresentation;
  return rep.company_or_person === 'company'
    ? `${home}#organization`
    : `${home}#/schema/person/${rep.company_or_person_user_id}`;
}

/** The Organization or Person node described by the site representation. */
export function representationNode(site: SiteState, store: LangStore): Record<string, unknown> {
  const rep = store.seo.siteRepresentation;
  const social = store.seo.socialProfiles;
  const sameAs = [
    social.facebook_site,
    social.twitter_site === '' ? '' : `https://x.com/${social.twitter_site.replace(/^@/, '')}`,
    ...social.other_social_urls,
  ].filter((url) => url !== '');
  const logoId = rep.company_or_person === 'company' ? rep.company_logo_id : rep.person_logo_id;
  const logoUrl = rep.company_or_person === 'company' ? rep.company_logo : rep.person_logo;
  const logoItem = logoId ? store.getItem('attachment', logoId) : undefined;
  const logo =
    logoUrl || logoItem?.media
      ? {
          '@type': 'ImageObject',
          url: logoUrl || uploadsUrl(site.base, store.settings.lang, logoItem?.media?.file ?? ''),
          contentUrl:
            logoUrl || uploadsUrl(site.base, store.settings.lang, logoItem?.media?.file ?? ''),
          ...(logoItem?.media?.width
            ? { width: logoItem.media.width, height: logoItem.media.height }
            : {}),
        }
      : undefined;
  if (rep.company_or_person === 'company') {
    return {
      '@type': 'Organization',
      '@id': representationId(site, store),
      name: rep.company_name,
      url: homeUrl(site.base, store.settings.lang),
      ...(logo ? { logo } : {}),
      ...(rep.description ? { description: rep.description } : {}),
      sameAs,
    };
  }
  const user = site.users.find((candidate) => candidate.id === rep.company_or_person_user_id);
  return {
    '@type': ['Person', 'Organization'],
    '@id': representationId(site, store),
    name: user?.name ?? '',
    ...(logo ? { image: logo, logo } : {}),
    ...(rep.description ? { description: rep.description } : {}),
    sameAs,
  };
}
