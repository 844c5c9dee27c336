import { text, localize } from '../localized.js';
import { homeUrl, wordCount } from '../render.js';
import { RestError } from '../rest-error.js';
import { json } from '../route-types.js';
import type { Handler, HandlerContext } from '../route-types.js';
import { editorRoute, ok } from './seo-editor.js';
import { indexingProgress } from './seo-indexing.js';
import type { LangStore, StoredItem } from '../store.js';

/**
 * The `seo/v1` helper routes (editors only): configuration state saved and returned, the
 * site representation that `seo_head_json` is built from, indexing routes that process the
 * content in chunks and report progress, and statistics computed from the content.
 * Response bodies are "not shown" by the spec; these follow the plug-in's shapes loosely.
 */
export * from './seo-indexing.js';

export const fileSizeHandler: Handler = editorRoute((context) => {
  let path: string;
  try {
    path = new URL(String(context.params.url), context.site.base).pathname;
  } catch {
    path = '';
  }
  const file = context.store.files.get(path);
  if (!file) throw new RestError(404, 'seo_file_not_found', 'The file could not be found.');
  return json({ type: 'success', size_in_bytes: file.bytes().length });
});

interface Statistics {
  version: number;
  body: Record<string, unknown>;
}
const statisticsCache = new WeakMap<LangStore, Statistics>();

function seoRank(item: StoredItem): 'good' | 'ok' | 'bad' {
  const words = wordCount(item.content);
  if (words >= 300) return 'good';
  if (words >= 100) return 'ok';
  return 'bad';
}

const RANK_TITLES = {
  good: text(
    'Posts with a good SEO score',
    'Wpisy z dobrą oceną SEO',
    'Entradas con una buena puntuación SEO',
  ),
  ok: text(
    'Posts with an OK SEO score',
    'Wpisy z przeciętną oceną SEO',
    'Entradas con una puntuación SEO aceptable',
  ),
  bad: text(
    'Posts that need improvement',
    'Wpisy wymagające poprawy',
    'Entradas que necesitan mejoras',
  ),
};

function computeStatistics(context: HandlerContext): Record<string, unknown> {
  const { store, site } = context;
  const home = homeUrl(site.base, store.settings.lang);
  const ranks = { good: 0, ok: 0, bad: 0 };
  const byStatus = (items: readonly StoredItem[]): Record<string, number> => {
    const counts: Record<string, number> = {};
    for (const item of items) counts[item.status] = (counts[item.status] ?? 0) + 1;
    return counts;
  };
  let words = 0;
  let links = 0;
  let published = 0;
  for (const type of ['post', 'page'] as const) {
    for (const item of store.indexes[type].all) {
      if (item.status !== 'publish') continue;
      published++;
      ranks[seoRank(item)]++;
      words += wordCount(item.content);
      links += item.content.split(`href="${home}`).length - 1;
    }
  }
  return {
    header: localize(
      text('Your site at a glance', 'Twoja witryna w skrócie', 'Tu sitio de un vistazo'),
      store.settings.lang,
    ),
    statistics: (['good', 'ok', 'bad'] as const).map((rank) => ({
      seo_rank: rank,
      title: localize(RANK_TITLES[rank], store.settings.lang),
      count: ranks[rank],
    })),
    totals: {
      posts: byStatus(store.indexes.post.all),
      pages: byStatus(store.indexes.page.all),
      media: store.indexes.attachment.all.length,
      published,
      words,
      average_words: published === 0 ? 0 : Math.round(words / published),
      internal_links: links,
    },
    indexing: indexingProgress(store),
  };
}

export const statisticsHandler: Handler = editorRoute((context) => {
  const cached = statisticsCache.get(context.store);
  if (cached && cached.version === context.store.version) return json(cached.body);
  const body = computeStatistics(context);
  statisticsCache.set(context.store, { version: context.store.version, body });
  return json(body);
});

export const alertsDismissHandler: Handler = editorRoute((context) => {
  const key = String(context.params.key);
  const state = context.store.seo;
  if (!state.dismissedAlerts.includes(key)) state.dismissedAlerts.push(key);
  return ok({ dismissed: [...state.dismissedAlerts] });
});

export const siteRepresentationHandler: Handler = editorRoute((context) => {
  const { params, store, site } = context;
  const rep = { ...store.seo.siteRepresentation };
  rep.company_or_person = params.company_or_person as 'company' | 'person';
  for (const key of ['company_name', 'company_logo', 'person_logo', 'description'] as const) {
    if (typeof params[key] === 'string') rep[key] = params[key];
  }
  for (const key of ['company_logo_id', 'person_logo_id', 'company_or_person_user_id'] as const) {
    if (typeof params[key] === 'number') rep[key] = params[key];
  }
  for (const key of ['company_logo_id', 'person_logo_id'] as const) {
    if (rep[key] !== 0 && !store.getItem('attachment', rep[key])) {
      throw new RestError(400, 'seo_invalid_logo', `${key} is not the id of a media item.`);
    }
  }
  if (
    rep.company_or_person === 'person' &&
    !site.users.some((user) => user.id === rep.company_or_person_user_id)
  ) {
    throw new RestError(
      400,
      'seo_invalid_user',
      'company_or_person_user_id is not the id of a user.',
    );
  }
  store.seo.siteRepresentation = rep;
  store.version++;
  return ok();
});

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export const socialProfilesHandler: Handler = editorRoute((context) => {
  const { params, store } = context;
  const next = { ...store.seo.socialProfiles };
  const failures: string[] = [];
  if (typeof params.facebook_site === 'string') {
    if (params.facebook_site === '' || isHttpUrl(params.facebook_site))
      next.facebook_site = params.facebook_site;
    else failures.push('facebook_site');
  }
  if (typeof params.twitter_site === 'string') {
    const handle = params.twitter_site
      .replace(/^https?:\/\/(www\.)?(twitter|x)\.com\//, '')
      .replace(/^@/, '');
    if (handle === '' || /^\w{1,15}$/.test(handle)) next.twitter_site = handle;
    else failures.push('twitter_site');
  }
  if (Array.isArray(params.other_social_urls)) {
    const urls = params.other_social_urls.map(String);
    urls.forEach((url, index) => {
      if (!isHttpUrl(url)) failures.push(`other_social_urls[${index}]`);
    });
    next.other_social_urls = urls;
  }
  if (failures.length > 0) {
    throw new RestError(400, 'seo_invalid_social_profiles', 'Could not save some fields.', {
      failures,
    });
  }
  store.seo.socialProfiles = next;
  store.version++;
  return ok();
});

export const checkCapabilityHandler: Handler = editorRoute((context) => {
  const userId = Number.parseInt(String(context.params.user_id), 10);
  return json({
    success: true,
    status: 200,
    capable: context.site.users.some((user) => user.id === userId),
  });
});

export const enableTrackingHandler: Handler = editorRoute((context) => {
  context.store.seo.tracking = context.params.tracking as boolean;
  return ok({ tracking: context.store.seo.tracking });
});

export const saveConfigurationStateHandler: Handler = editorRoute((context) => {
  context.store.seo.finishedSteps = (context.params.finishedSteps as unknown[]).map(String);
  return ok();
});

export const getConfigurationStateHandler: Handler = editorRoute((context) => {
  const { seo } = context.store;
  return json({
    success: true,
    data: {
      finishedSteps: [...seo.finishedSteps],
      site_representation: { ...seo.siteRepresentation },
      social_profiles: {
        ...seo.socialProfiles,
        other_social_urls: [...seo.socialProfiles.other_social_urls],
      },
    },
  });
});

const IMPORT_TYPES = new Set([
  'posts',
  'terms',
  'default_settings',
  'general_settings',
  'posttype_defaults',
  'taxonomy_settings',
  'validate_data',
  'cleanup',
]);

export const importHandler: Handler = editorRoute((context) => {
  const { plugin, type } = context.urlParams;
  if (plugin !== 'aioseo' || !IMPORT_TYPES.has(type ?? '')) {
    throw new RestError(404, 'rest_no_route', 'Requested route not found');
  }
  return json({ objects: [], next_url: false });
});

export const setActiveHandler: Handler = editorRoute((context) => {
  context.store.seo.integrations[String(context.params.integration)] = context.params
    .active as boolean;
  return ok({ integrations: { ...context.store.seo.integrations } });
});

export const metaSearchHandler: Handler = editorRoute((context) => {
  const { store } = context;
  const title = localize(
    text('Search results', 'Wyniki wyszukiwania', 'Resultados de búsqueda'),
    store.settings.lang,
  );
  return json({
    meta: {
      title: `${title} - ${store.settings.name}`,
      robots: { index: 'noindex', follow: 'follow' },
      og_locale: store.settings.locale,
      og_type: 'article',
      og_title: `${title} - ${store.settings.name}`,
      og_site_name: store.settings.name,
    },
  });
});

export const workoutsGetHandler: Handler = editorRoute((context) =>
  json({ workouts: structuredClone(context.store.seo.workouts) }),
);

export const workoutsPostHandler: Handler = editorRoute((context) => {
  const workouts = context.request.body?.workouts;
  if (typeof workouts === 'object' && workouts !== null && !Array.isArray(workouts)) {
    context.store.seo.workouts = structuredClone(workouts as Record<string, unknown>);
  }
  return ok({ workouts: structuredClone(context.store.seo.workouts) });
});
