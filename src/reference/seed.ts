import { imageSizes, minimalPdf, registerFile, registerSeedImage } from './media-files.js';
import type { Rgb } from './png.js';
import { sanitizeSlug } from './render.js';
import { pick, randomInt, rngFor } from './rng.js';
import type { Rng } from './rng.js';
import { emptySeoState } from './seo-state.js';
import { seedTextFor } from './seed-text.js';
import type { SeedText } from './seed-text.js';
import { siteYearMonth } from './site-dates.js';
import { LangStore } from './store.js';
import type { StoredItem } from './store.js';
import { revisionsFor, richContent } from './seed-content.js';
import { addHostileItems } from './hostile.js';
import { addOverlapItems } from './overlap.js';
import { VARIANT_PAGE_INDEX, VARIANT_POST_INDEX, variantContent } from './seed-variants.js';

import {
  INDEPENDENT_ID_STEP,
  SEED_EPOCH,
  RICH_POSTS,
  DAY,
  RICH_STATUS,
  PASSWORD_POST,
  STICKY_POSTS,
  FORMATS,
  PAGE_PARENTS,
  IMAGE_BOXES,
  makePlan,
  inLanguage,
} from './seed-plan.js';
import type { PlannedItem, Plan } from './seed-plan.js';
import { seedTerms, bulkVocabulary, CATEGORY_SETS, TAG_SETS, postDate } from './seed-vocabulary.js';
import { baseItem } from './item-defaults.js';
import { trashedSlug } from './item-removal.js';

export { RICH_POSTS, SEED_EPOCH } from './seed-plan.js';

/**
 * Deterministic seed content. The same seed gives the same items (ids, dates, text) on every
 * run; `pl` and `es` differ in every text and slug; translations share id and type (unless
 * `independentIds`: then each language numbers its items on its own, as separate sites do). The first
 * RICH_POSTS posts carry real HTML (headings, images, internal links, embeds) and every
 * status; further posts are short, so 100,000 of them seed in seconds.
 */
export interface SeedOptions {
  readonly seed: string;
  readonly posts: number;
  readonly pages: number;
  readonly media: number;
  readonly languages: readonly string[];
  readonly hostile: boolean;
  /** Each language numbers its items on its own (separate sites). @default false */
  readonly independentIds?: boolean;
  readonly base: string;
  /** Drafts and pending items have an empty slug, as deployed servers answer. @default false */
  readonly sluglessDrafts?: boolean;
  /** Seed of a site whose slugs and dates this site's own items repeat (see overlap.ts). */
  readonly overlapWith?: string | undefined;
  /** Append content referring to media and items by URL variants (see seed-variants.ts). */
  readonly urlVariants?: boolean;
}

function colour(rng: Rng): Rgb {
  return [randomInt(rng, 0, 255), randomInt(rng, 0, 255), randomInt(rng, 0, 255)];
}

function seedMedia(
  options: SeedOptions,
  plan: Plan,
  store: LangStore,
  text: SeedText,
): StoredItem[] {
  const lang = store.settings.lang;
  return plan.media.map((id, index) => {
    const rng = rngFor(options.seed, 'media', index);
    const textRng = rngFor(options.seed, lang, 'media', index);
    const [title, alt, caption] = text.mediaTitles[index % text.mediaTitles.length] as readonly [
      string,
      string,
      string,
    ];
    const fullTitle = index < text.mediaTitles.length ? title : `${title} ${index + 1}`;
    const dateGmt = SEED_EPOCH - 200 * DAY + index * 2 * DAY + randomInt(rng, 0, 3600);
    const [year, month] = siteYearMonth(dateGmt, store.settings.gmtOffset);
    const isPdf = index % 6 === 5;
    const slug = sanitizeSlug(fullTitle);
    const fileName = `${slug}.${isPdf ? 'pdf' : 'png'}`;
    const item = baseItem(id, 'attachment', dateGmt);
    item.status = 'inherit';
    item.slug = slug;
    item.title = fullTitle;
    item.author = index % 2 === 0 ? 1 : 2;
    item.parent =
      index < plan.richPosts.length && index !== 5 && index !== 9
        ? (plan.richPosts[index]?.id ?? 0)
        : 0;
    const file = `${year}/${month}/${fileName}`;
    if (isPdf) {
      item.media = {
        file,
        mimeType: 'application/pdf',
        width: undefined,
        height: undefined,
        altText: '',
        caption,
        description: '',
        sizes: [],
      };
      const bytes = minimalPdf(fullTitle);
      registerFile(store, options.base, file, {
        owner: id,
        mimeType: 'application/pdf',
        lastModified: dateGmt,
        bytes: () => bytes,
      });
    } else {
      const [width, height] = IMAGE_BOXES[index % IMAGE_BOXES.length] as readonly [number, number];
      item.media = {
        file,
        mimeType: 'image/png',
        width,
        height,
        altText: alt,
        caption,
        description: pick(textRng, text.sentences),
        sizes: imageSizes(fileName, 'image/png', width, height),
      };
      registerSeedImage(
        store,
        options.base,
        id,
        item.media,
        { background: colour(rng), foreground: colour(rng), stripe: randomInt(rng, 12, 48) },
        dateGmt,
      );
    }
    return item;
  });
}

function seedPages(
  options: SeedOptions,
  plan: Plan,
  store: LangStore,
  text: SeedText,
  langIndex: number,
): StoredItem[] {
  const out: StoredItem[] = [];
  plan.pages.forEach((planned, index) => {
    if (!inLanguage('page', index, langIndex, options.languages.length)) return;
    const rng = rngFor(options.seed, 'page', index);
    const dateGmt = SEED_EPOCH - 300 * DAY + index * DAY + randomInt(rng, 0, 7200);
    const item = baseItem(planned.id, 'page', dateGmt);
    const title = text.pageTitles[index] ?? `${text.extraPage} ${index + 1}`;
    item.title = title;
    item.slug =
      index < text.pageTitles.length
        ? sanitizeSlug(title)
        : `${sanitizeSlug(text.extraPage)}-${index + 1}`;
    const parentIndex =
      index < PAGE_PARENTS.length
        ? (PAGE_PARENTS[index] as number)
        : index % 4 === 0
          ? -1
          : index - (index % 4);
    item.parent = parentIndex >= 0 ? (plan.pages[parentIndex]?.id ?? 0) : 0;
    item.menuOrder = index;
    item.status = index === 7 ? 'draft' : 'publish';
    if (options.sluglessDrafts && item.status === 'draft') item.slug = '';
    item.author = index % 2 === 0 ? 1 : 2;
    item.modifiedGmt = dateGmt + (index % 3) * DAY;
    item.template = index === 0 ? 'full-width' : '';
    out.push(item);
  });
  return out;
}

function seedPosts(
  options: SeedOptions,
  plan: Plan,
  store: LangStore,
  text: SeedText,
  langIndex: number,
): StoredItem[] {
  const out: StoredItem[] = [];
  const lang = store.settings.lang;
  const vocabulary = bulkVocabulary(text);
  const imageIds = plan.media.filter((_, index) => index % 6 !== 5);
  const shared = rngFor(options.seed, 'posts');
  const texts = rngFor(options.seed, lang, 'posts');
  let previousModified = 0;
  for (let index = 0; index < options.posts; index++) {
    const dateGmt = postDate(index, shared);
    const later = shared() < 0.25 ? randomInt(shared, 60, 30 * DAY) : 0;
    const authorDraw = shared();
    const categoryDraw = shared();
    const tagDraw = shared();
    if (!inLanguage('post', index, langIndex, options.languages.length)) continue;
    const item = baseItem(plan.postIds[index] as number, 'post', dateGmt);
    // Every 50th bulk post shares its modified second with the previous one (ties must not lose items).
    if (index >= RICH_POSTS && index % 50 === 0 && previousModified > 0)
      item.modifiedGmt = previousModified;
    else if (index === 7)
      item.modifiedGmt = SEED_EPOCH - DAY; // scheduled: saved in the past, dated in the future
    else item.modifiedGmt = dateGmt + later;
    previousModified = item.modifiedGmt;
    item.author = authorDraw < 0.3 ? 2 : 1;
    item.categories = CATEGORY_SETS[Math.floor(categoryDraw * CATEGORY_SETS.length)] as number[];
    item.tags = TAG_SETS[Math.floor(tagDraw * TAG_SETS.length)] as number[];
    if (index < RICH_POSTS) {
      item.title = text.postTitles[index] as string;
      item.slug = sanitizeSlug(item.title);
      item.status = RICH_STATUS[index] ?? 'publish';
      item.sticky = STICKY_POSTS.has(index);
      item.format = FORMATS[index] ?? 'standard';
      item.password = index === PASSWORD_POST ? text.postPassword : '';
      item.excerpt = index % 4 === 1 ? pick(texts, text.excerpts) : '';
      item.featuredMedia = imageIds.length > 0 ? (imageIds[index % imageIds.length] as number) : 0;
      item.author = index % 3 === 2 ? 2 : 1;
      item.commentStatus = index % 5 === 4 ? 'closed' : 'open';
    } else {
      const [title, slug] = vocabulary.titles[
        Math.floor(texts() * vocabulary.titles.length)
      ] as readonly [string, string];
      item.title = `${title} ${index + 1}`;
      item.slug = `${slug}-${index + 1}`;
      item.content = vocabulary.paragraphs[
        Math.floor(texts() * vocabulary.paragraphs.length)
      ] as string;
      if (index % 211 === 0) item.status = 'draft';
      else if (index % 307 === 0) item.status = 'private';
    }
    if (options.sluglessDrafts && (item.status === 'draft' || item.status === 'pending'))
      item.slug = '';
    if (item.status === 'trash') {
      const trashed = trashedSlug(item, item.slug);
      item.slug = trashed.slug;
      item.desiredSlug = trashed.desired;
    }
    out.push(item);
  }
  return out;
}

function seedLanguage(
  options: SeedOptions,
  plan: Plan,
  lang: string,
  langIndex: number,
): LangStore {
  const text = seedTextFor(lang);
  const store = new LangStore(
    {
      lang,
      gmtOffset: text.gmtOffset,
      name: text.siteName,
      description: text.siteDescription,
      locale: text.locale,
    },
    emptySeoState(
      {
        company_or_person: langIndex % 2 === 0 ? 'company' : 'person',
        company_name: text.companyName,
        company_logo: '',
        company_logo_id: 0,
        person_logo: '',
        person_logo_id: 0,
        company_or_person_user_id: 1,
        description: text.representationDescription,
      },
      {
        facebook_site: `https://www.facebook.com/cmsmirror.${lang}`,
        twitter_site: `cmsmirror_${lang}`,
        other_social_urls: [`https://www.instagram.com/cmsmirror.${lang}/`],
      },
    ),
  );
  store.terms.push(...seedTerms(text));
  const media = seedMedia(options, plan, store, text);
  const pages = seedPages(options, plan, store, text, langIndex);
  const posts = seedPosts(options, plan, store, text, langIndex);
  store.addMany([...media, ...pages, ...posts]);
  const logo = media.find((item) => item.media?.mimeType.startsWith('image/'));
  if (logo) {
    const rep = store.seo.siteRepresentation;
    if (rep.company_or_person === 'company') rep.company_logo_id = logo.id;
    else rep.person_logo_id = logo.id;
  }
  // Content links to other items, so it is written once every item (and its link) exists.
  const richIds = new Set(plan.richPosts.map((planned) => planned.id));
  const richPosts = posts.filter((item) => richIds.has(item.id));
  const linkable = [...richPosts, ...pages].filter(
    (item) => item.status === 'publish' && item.password === '',
  );
  for (const item of richPosts) {
    const index = plan.richPosts.findIndex((planned) => planned.id === item.id);
    item.content = richContent(options, store, text, item, index, linkable);
    for (const revision of revisionsFor(plan.richPosts[index] as PlannedItem, item, text))
      store.addRevision(revision);
  }
  for (const item of pages) {
    const index = plan.pages.findIndex((planned) => planned.id === item.id);
    item.content = richContent(options, store, text, item, index + 100, linkable);
    for (const revision of revisionsFor(plan.pages[index] as PlannedItem, item, text))
      store.addRevision(revision);
  }
  if (langIndex === 0 && pages.length >= 2) {
    store.showOnFront = 'page';
    store.pageOnFront = pages[0]?.id ?? 0;
    store.pageForPosts = pages[1]?.id ?? 0;
  }
  store.nextId = plan.nextId;
  if (options.hostile) addHostileItems(store, options.base);
  store.version++;
  return store;
}

/**
 * The URL-variant block on the first rich post and the first page (when they exist), once
 * every language is seeded: it also shows another language's own file.
 */
function addVariants(
  options: SeedOptions,
  plans: ReadonlyMap<string, Plan>,
  stores: ReadonlyMap<string, LangStore>,
): void {
  for (const [lang, store] of stores) {
    const plan = plans.get(lang)!;
    const richIds = new Set(plan.richPosts.map((planned) => planned.id));
    const richPosts = store.indexes.post.all.filter((item) => richIds.has(item.id));
    const pages = store.indexes.page.all;
    const linkable = [...richPosts, ...pages].filter(
      (item) => item.status === 'publish' && item.password === '',
    );
    const post = store.getItem('post', plan.richPosts[VARIANT_POST_INDEX]?.id ?? 0);
    const page = store.getItem('page', plan.pages[VARIANT_PAGE_INDEX]?.id ?? 0);
    const targets = {
      post: linkable.find((item) => item.type === 'post' && item.id !== post?.id),
      page: linkable.find((item) => item.type === 'page' && item.id !== page?.id),
      draft:
        richPosts.find((item) => item.status === 'draft') ??
        pages.find((item) => item.status === 'draft'),
    };
    const other = [...stores.entries()].find(([code]) => code !== lang)?.[1];
    for (const item of [post, page]) {
      if (item === undefined) continue;
      const block = variantContent(options, store, item, targets, other);
      if (block !== '') item.content = `${item.content}\n\n${block}`;
    }
  }
}

export function seedSite(options: SeedOptions): Map<string, LangStore> {
  const shared = makePlan(options);
  const stores = new Map<string, LangStore>();
  const plans = new Map<string, Plan>();
  options.languages.forEach((lang, langIndex) => {
    const plan = options.independentIds
      ? makePlan(options, 1 + langIndex * INDEPENDENT_ID_STEP)
      : shared;
    plans.set(lang, plan);
    stores.set(lang, seedLanguage(options, plan, lang, langIndex));
  });
  if (options.urlVariants) addVariants(options, plans, stores);
  if (options.overlapWith !== undefined) {
    // The other site's first items do not depend on its sizes beyond these.
    const others = seedSite({
      ...options,
      seed: options.overlapWith,
      posts: RICH_POSTS,
      pages: 8,
      media: 6,
      hostile: false,
      urlVariants: false,
      overlapWith: undefined,
    });
    for (const [lang, store] of stores) {
      addOverlapItems(store, others.get(lang)!, options.base);
      store.version++;
    }
  }
  return stores;
}
