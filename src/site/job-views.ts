/**
 * The jobs the templates render: what a post, page, listing, 404 or search page shows, with
 * every link already relative to the page. Built only for pages that are rendered. Pure.
 */
import { relativeSitePath } from '../transform/index.js';
import { htmlToText, truncateText } from './html-text.js';
import { compare, safeCanonical, type Placed } from './placed-entries.js';
import type { SearchPlan } from './search-plan.js';
import type { Entry, PageEntry, PostEntry, SiteModel } from './site-model.js';
import {
  absoluteHttpUrl,
  jsonLdGraph,
  jsonLdScriptContent,
  type JsonLdItem,
} from './structured-data.js';
import type {
  CardView,
  ImageView,
  ItemView,
  Job,
  JobBase,
  LinkView,
  ListingJob,
  NavLink,
  PageJob,
  PostJob,
  SwitcherLink,
} from './template-data.js';
import { gmtToIso } from './xml-text.js';

export interface JobContext {
  model: SiteModel;
  publicUrl: string;
  dateFormat: (dateGmt: string) => string;
  /** Top-level pages for the menu. */
  nav: { title: string; sitePath: string }[];
  languages: Map<string, { label: string; hreflang: string; homePath: string; homeUrl: string }>;
}

export function languageTable(model: SiteModel): JobContext['languages'] {
  const table: JobContext['languages'] = new Map();
  for (const language of model.languages) {
    let homeUrl: string;
    try {
      homeUrl = new URL(language.homePath, model.site.publicUrl).href;
    } catch {
      continue;
    }
    table.set(language.lang, {
      label: language.label,
      hreflang: language.hreflang ?? language.lang,
      homePath: language.homePath,
      homeUrl: homeUrl.endsWith('/') ? homeUrl : `${homeUrl}/`,
    });
  }
  if (!table.has(model.lang)) {
    table.set(model.lang, {
      label: model.lang,
      hreflang: model.lang,
      homePath: './',
      homeUrl: model.site.publicUrl,
    });
  }
  return table;
}

export function navEntries(pages: readonly Placed<PageEntry>[]): JobContext['nav'] {
  return pages
    .filter((page) => page.entry.parentId === 0)
    .sort((a, b) => a.entry.menuOrder - b.entry.menuOrder || compare(a.entry.title, b.entry.title))
    .map((page) => ({ title: page.entry.title, sitePath: page.sitePath }));
}

/** A relative URL from the language root (`homePath`, `page/2/`) seen from `root`. */
function fromRoot(root: string, path: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//')) return path;
  const rest = path.replace(/^(\.\/)+/, '');
  const joined = root === './' ? rest : `${root}${rest}`;
  return joined === '' ? './' : joined;
}

function baseJob(
  context: JobContext,
  sitePath: string,
  fields: Partial<JobBase> & Pick<JobBase, 'title' | 'description'>,
  counterparts: readonly { lang: string; sitePath: string }[] | 'homes',
  jsonLdItem?: JsonLdItem,
): JobBase {
  const { model, publicUrl } = context;
  const root = relativeSitePath(sitePath, '/');
  const canonical = absoluteUrl(publicUrl, sitePath);

  const { switcher, alternates } = languageVersions(
    context,
    sitePath,
    root,
    canonical,
    counterparts,
  );
  const nav: NavLink[] = context.nav.map((item) => ({
    title: item.title,
    href: relativeSitePath(sitePath, item.sitePath),
    current: item.sitePath === sitePath,
  }));

  return {
    permalink: '',
    sitePath,
    root,
    canonical,
    alternates,
    switcher,
    nav,
    jsonLd: jsonLdScriptContent(jsonLdGraph(model, jsonLdItem)),
    robots: '',
    baseHref: '',
    ...fields,
  };
}

/** The language switcher and `hreflang` alternates of one page. */
export function languageVersions(
  context: JobContext,
  sitePath: string,
  root: string,
  canonical: string,
  counterparts: readonly { lang: string; sitePath: string }[] | 'homes',
): { switcher: SwitcherLink[]; alternates: JobBase['alternates'] } {
  const { model } = context;
  // Language versions of this page: the item's counterparts, or every home for the home.
  const versions = new Map<string, string>();
  if (counterparts === 'homes') {
    for (const [lang] of context.languages) if (lang !== model.lang) versions.set(lang, '/');
  } else {
    for (const alternate of counterparts) {
      if (alternate.lang === model.lang || !context.languages.has(alternate.lang)) continue;
      const safe = safeCanonical(alternate.sitePath);
      if (safe !== undefined) versions.set(alternate.lang, safe);
    }
  }

  const switcher: SwitcherLink[] = [];
  const alternates: JobBase['alternates'] = [];
  for (const [lang, language] of context.languages) {
    const current = lang === model.lang;
    const counterpart = versions.get(lang);
    const target = current ? sitePath : (counterpart ?? '/');
    switcher.push({
      lang,
      label: language.label,
      hreflang: language.hreflang,
      href: current
        ? './'
        : fromRoot(root, `${language.homePath.replace(/\/?$/, '/')}${target.slice(1)}`),
      current,
      counterpart: current || counterpart !== undefined,
    });
    if (versions.size > 0 && (current || counterpart !== undefined)) {
      alternates.push({
        hreflang: language.hreflang,
        href: current ? canonical : absoluteUrl(language.homeUrl, target),
      });
    }
  }
  return { switcher, alternates };
}

function itemView(context: JobContext, placed: Placed<Entry>): ItemView {
  const { entry, sitePath } = placed;
  const view: ItemView = {
    id: entry.id,
    title: entry.title,
    html: entry.html,
    dateIso: gmtToIso(entry.dateGmt),
    dateDisplay: context.dateFormat(entry.dateGmt),
    modifiedIso: gmtToIso(entry.modifiedGmt),
  };
  const image = imageView(entry, sitePath);
  if (image) view.featuredImage = image;
  return view;
}

function imageView(entry: Entry, fromSitePath: string): ImageView | undefined {
  const image = entry.featuredImage;
  const target = image ? safeCanonical(image.sitePath) : undefined;
  if (!image || target === undefined) return undefined;
  const view: ImageView = { src: relativeSitePath(fromSitePath, target), alt: image.alt };
  if (image.width) view.width = image.width;
  if (image.height) view.height = image.height;
  return view;
}

export function description(entry: Entry): string {
  return truncateText(htmlToText(entry.excerptHtml) || htmlToText(entry.html), 160);
}

function jsonLdItem(context: JobContext, placed: Placed<Entry>, kind: 'post' | 'page'): JsonLdItem {
  const { entry, sitePath } = placed;
  const item: JsonLdItem = {
    kind,
    title: entry.title,
    url: absoluteUrl(context.publicUrl, sitePath),
    dateGmt: entry.dateGmt,
    modifiedGmt: entry.modifiedGmt,
    description: description(entry),
  };
  const image = entry.featuredImage ? safeCanonical(entry.featuredImage.sitePath) : undefined;
  if (image) item.image = absoluteHttpUrl(image, context.publicUrl);
  return item;
}

export function postJob(
  context: JobContext,
  placed: Placed<PostEntry>,
  older: Placed<PostEntry> | undefined,
  newer: Placed<PostEntry> | undefined,
): PostJob {
  const { entry, sitePath } = placed;
  const link = (other: Placed<PostEntry> | undefined): LinkView | undefined =>
    other
      ? { title: other.entry.title, href: relativeSitePath(sitePath, other.sitePath) }
      : undefined;
  const job: PostJob = {
    ...baseJob(
      context,
      sitePath,
      { title: entry.title, description: description(entry) },
      entry.alternates,
      jsonLdItem(context, placed, 'post'),
    ),
    kind: 'post',
    post: itemView(context, placed),
  };
  const olderLink = link(older);
  const newerLink = link(newer);
  if (olderLink) job.older = olderLink;
  if (newerLink) job.newer = newerLink;
  return job;
}

export function ancestorsOf(
  page: Placed<PageEntry>,
  byId: Map<number, Placed<PageEntry>>,
): Placed<PageEntry>[] {
  const ancestors: Placed<PageEntry>[] = [];
  const seen = new Set<number>([page.entry.id]);
  for (
    let parent = byId.get(page.entry.parentId);
    parent && !seen.has(parent.entry.id);
    parent = byId.get(parent.entry.parentId)
  ) {
    seen.add(parent.entry.id);
    ancestors.unshift(parent);
  }
  return ancestors;
}

export function byMenuOrder(a: Placed<PageEntry>, b: Placed<PageEntry>): number {
  return a.entry.menuOrder - b.entry.menuOrder || compare(a.entry.title, b.entry.title);
}

export function pageJob(
  context: JobContext,
  placed: Placed<PageEntry>,
  ancestors: readonly Placed<PageEntry>[],
  children: readonly Placed<PageEntry>[],
): PageJob {
  const { entry, sitePath } = placed;
  const link = (other: Placed<PageEntry>): LinkView => ({
    title: other.entry.title,
    href: relativeSitePath(sitePath, other.sitePath),
  });
  return {
    ...baseJob(
      context,
      sitePath,
      { title: entry.title, description: description(entry) },
      entry.alternates,
      jsonLdItem(context, placed, 'page'),
    ),
    kind: 'page',
    page: itemView(context, placed),
    breadcrumbs: ancestors.map(link),
    children: children.map(link),
  };
}

/** What a listing shows of a post (the body only when there is no excerpt). */
export function cardInput(placed: Placed<PostEntry>): unknown {
  const { entry } = placed;
  return [
    entry.title,
    placed.sitePath,
    entry.dateGmt,
    entry.sticky,
    entry.featuredImage ?? null,
    entry.excerptHtml || placed.digest,
  ];
}

export function listingJob(
  context: JobContext,
  shown: readonly Placed<PostEntry>[],
  number: number,
  totalPages: number,
): ListingJob {
  const sitePath = listingSitePath(number);
  const cards: CardView[] = shown.map(({ entry, sitePath: postPath }) => {
    const card: CardView = {
      title: entry.title,
      href: relativeSitePath(sitePath, postPath),
      dateIso: gmtToIso(entry.dateGmt),
      dateDisplay: context.dateFormat(entry.dateGmt),
      excerpt: truncateText(htmlToText(entry.excerptHtml) || htmlToText(entry.html), 300),
      sticky: entry.sticky,
    };
    const image = imageView(entry, sitePath);
    if (image) card.image = image;
    return card;
  });
  const job: ListingJob = {
    ...baseJob(
      context,
      sitePath,
      {
        title: '',
        description: context.model.site.description,
        // Later listing pages only repeat what the posts themselves say.
        robots: number > 1 ? 'noindex, follow' : '',
      },
      number === 1 ? 'homes' : [],
    ),
    kind: 'listing',
    pageNumber: number,
    totalPages,
    posts: cards,
  };
  if (number > 1)
    job.newer = { title: '', href: relativeSitePath(sitePath, listingSitePath(number - 1)) };
  if (number < totalPages)
    job.older = { title: '', href: relativeSitePath(sitePath, listingSitePath(number + 1)) };
  return job;
}

export function notFoundJob(context: JobContext, homePathname: string): Job {
  return {
    ...baseJob(
      context,
      '/404.html',
      { title: '', description: '', robots: 'noindex', baseHref: homePathname },
      [],
    ),
    kind: 'notFound',
  };
}

export function searchJob(context: JobContext, search: SearchPlan): Job {
  const sitePath = '/search/';
  return {
    ...baseJob(context, sitePath, { title: '', description: '', robots: 'noindex' }, []),
    kind: 'search',
    bundles: search.shards.map((shard) => relativeSitePath(sitePath, `/${shard.dir}/`)),
  };
}

export function listingSitePath(number: number): string {
  return number === 1 ? '/' : `/page/${number}/`;
}

/**
 * `base` (absolute, ending with `/`) joined with a canonical site path. Canonical segments are
 * percent-encoded, so joining strings gives what `new URL` would, at a fraction of the cost.
 */
export function absoluteUrl(base: string, sitePath: string): string {
  return `${base}${sitePath.slice(1)}`;
}

export function dateFormatter(locale: string): (dateGmt: string) => string {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
  } catch {
    format = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' });
  }
  return (dateGmt) => {
    const date = new Date(gmtToIso(dateGmt));
    return Number.isNaN(date.getTime()) ? dateGmt : format.format(date);
  };
}
