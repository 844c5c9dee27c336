import { collectionOf, type ContentType } from '../collections.js';
import type { MigrateType } from './planner.js';
import { mapSourceUrl, rewriteSourceUrls, sourceIndex } from './urls.js';

/**
 * Turns a source item into the body that creates it on the target: ids remapped (parent,
 * featured media, author when mapped, media ids in content), and every URL of the source in
 * content rewritten to the target's. Pure.
 */

export interface RemapContext {
  /** Source id → target id, per type, for everything migrated so far. */
  readonly ids: Readonly<Record<MigrateType, ReadonlyMap<number, number>>>;
  /** Source author id → target author id; unmapped authors are left to the target (the importing user). */
  readonly authors: ReadonlyMap<number, number>;
  /** Exact source URL → target URL (media files and their sizes, links of migrated items). */
  readonly urls: ReadonlyMap<string, string>;
  /** `home` of the source language (`http://a/pl/`) and of the target. */
  readonly sourceHome: string;
  readonly targetHome: string;
  /** Base `url` of the source site and of the target (no trailing slash needed). */
  readonly sourceUrl: string;
  readonly targetUrl: string;
  /** Send category and tag ids as they are (the target shares the source's terms). @default false */
  readonly keepTerms?: boolean;
  /**
   * Collects source URLs under the source home or uploads that match nothing migrated (they
   * stay as they are); the run lists them in its warnings. @default not collected
   */
  readonly unmatched?: Set<string>;
}

export interface RemapResult {
  readonly body: Record<string, unknown>;
  /** Fields dropped or defaulted, for the report. */
  readonly notes: string[];
}

/**
 * Writable fields are copied as they are (the collection's `migrate.copied`). Terms only on
 * request (`keepTerms`): their routes are not part of the interface.
 */
export function postBody(
  type: ContentType,
  json: Readonly<Record<string, unknown>>,
  parentSourceId: number,
  context: RemapContext,
): RemapResult {
  const notes: string[] = [];
  const body: Record<string, unknown> = {};
  const collection = collectionOf(type);
  for (const name of collection.migrate.copied) {
    if (json[name] !== undefined && json[name] !== null) body[name] = json[name];
  }
  if (body.password === '') delete body.password;
  if (typeof body.slug === 'string') body.slug = decodedSlug(body.slug);
  const title = textOf(json.title);
  if (title !== undefined) body.title = title;
  // Relative URLs in content were written relative to the item's own page.
  const link = typeof json.link === 'string' ? json.link : undefined;
  const content = textOf(json.content);
  if (content !== undefined) body.content = rewriteContent(content, context, link);
  // Only a raw excerpt is the author's; a rendered one is generated from the content.
  const excerpt = rawOf(json.excerpt);
  if (excerpt !== undefined && excerpt !== '')
    body.excerpt = rewriteContent(excerpt, context, link);
  Object.assign(body, dates(json));
  if (collection.hierarchical) {
    const parent = parentSourceId === 0 ? 0 : context.ids[type].get(parentSourceId);
    if (parent === undefined)
      notes.push(`parent ${parentSourceId} not migrated yet; created top-level`);
    body.parent = parent ?? 0;
  }
  const featured = typeof json.featured_media === 'number' ? json.featured_media : 0;
  if (featured !== 0) {
    const target = context.ids.media.get(featured);
    if (target === undefined) notes.push(`featured media ${featured} not migrated; left empty`);
    else body.featured_media = target;
  }
  const author = mappedAuthor(json, context);
  if (author !== undefined) body.author = author;
  if (
    typeof json.meta === 'object' &&
    json.meta !== null &&
    typeof (json.meta as { footnotes?: unknown }).footnotes === 'string'
  ) {
    const footnotes = (json.meta as { footnotes: string }).footnotes;
    if (footnotes !== '') body.meta = { footnotes };
  }
  // Term ids are left out unless the target shares them; the run says once which (migrate-terms.ts).
  if (context.keepTerms === true && collection.terms) {
    for (const field of ['categories', 'tags'] as const) {
      if (Array.isArray(json[field])) body[field] = json[field];
    }
  }
  return { body, notes };
}

/** Media fields, sent in the query string of the raw upload. */
export function mediaFields(
  json: Readonly<Record<string, unknown>>,
  context: RemapContext,
): Record<string, string> {
  const fields: Record<string, string> = {};
  const set = (name: string, value: unknown) => {
    if (typeof value === 'string' && value !== '') fields[name] = value;
    else if (typeof value === 'number') fields[name] = String(value);
  };
  set('title', textOf(json.title));
  set('slug', typeof json.slug === 'string' ? decodedSlug(json.slug) : undefined);
  set('alt_text', json.alt_text);
  set('caption', textOf(json.caption));
  set('description', rawOf(json.description));
  for (const [name, value] of Object.entries(dates(json))) set(name, value);
  set('author', mappedAuthor(json, context));
  return fields;
}

/** The file name to upload under: the source file's own name, never a path. */
export function mediaFileName(json: Readonly<Record<string, unknown>>): string {
  const details = json.media_details as { file?: unknown } | undefined;
  const candidate =
    (typeof details?.file === 'string' && details.file) ||
    (typeof json.source_url === 'string' && json.source_url) ||
    `media-${String(json.id)}`;
  const base = candidate.split(/[\\/]/).pop() ?? '';
  const clean = base
    .split(/[?#]/)[0]!
    .replace(/[^\w.-]+/g, '-')
    .replace(/^\.+/, '');
  return clean === '' ? `media-${String(json.id)}` : clean.slice(-120);
}

/**
 * The source's URLs of one media item mapped to the target's: the full file, and each size
 * to the target's size of the same name (else the target's full file).
 */
export function mediaUrlPairs(
  source: Readonly<Record<string, unknown>>,
  target: Readonly<Record<string, unknown>>,
): [string, string][] {
  const targetFull = typeof target.source_url === 'string' ? target.source_url : undefined;
  if (targetFull === undefined) return [];
  const pairs: [string, string][] = [];
  if (typeof source.source_url === 'string') pairs.push([source.source_url, targetFull]);
  const sourceSizes = sizesOf(source);
  const targetSizes = sizesOf(target);
  for (const [name, url] of sourceSizes) pairs.push([url, targetSizes.get(name) ?? targetFull]);
  return pairs;
}

/**
 * The source's URLs of one post or page mapped to the target's link: its `link`, and for a
 * top-level page shown at an address without its slug (the static front page, whose `link`
 * is the home) also the address with its slug, which content written before it became the
 * front page still uses.
 */
export function itemUrlPairs(
  source: Readonly<Record<string, unknown>>,
  target: Readonly<Record<string, unknown>>,
): [string, string][] {
  const from = source.link;
  const to = target.link;
  if (typeof from !== 'string' || typeof to !== 'string') return [];
  const pairs: [string, string][] = [[from, to]];
  const slug = typeof source.slug === 'string' ? source.slug : '';
  if (
    source.type === 'page' &&
    source.parent === 0 &&
    slug !== '' &&
    !from.includes('?') &&
    from.endsWith('/') &&
    !from.endsWith(`/${slug}/`)
  ) {
    pairs.push([`${from}${slug}/`, to]);
  }
  return pairs;
}

function sizesOf(json: Readonly<Record<string, unknown>>): Map<string, string> {
  const out = new Map<string, string>();
  const sizes = (json.media_details as { sizes?: unknown } | undefined)?.sizes;
  if (typeof sizes !== 'object' || sizes === null) return out;
  for (const [name, size] of Object.entries(sizes)) {
    const url = (size as { source_url?: unknown } | null)?.source_url;
    if (typeof url === 'string') out.set(name, url);
  }
  return out;
}

/**
 * Content with the source's media ids and URLs replaced by the target's:
 * `cms-image-{id}` classes, `data-id` attributes and block comment ids of migrated media, and
 * every URL that names a migrated item or file, however it is spelled (see migrate-urls.ts),
 * the `\/`-escaped form block comments use included. `base`: the item's source link, for
 * relative URLs.
 */
export function rewriteContent(html: string, context: RemapContext, base?: string): string {
  let out = html.replace(/\bcms-image-(\d+)\b/g, (whole, id: string) => {
    const target = context.ids.media.get(Number(id));
    return target === undefined ? whole : `cms-image-${target}`;
  });
  out = out.replace(/\bdata-id=(["'])(\d+)\1/g, (whole, quote: string, id: string) => {
    const target = context.ids.media.get(Number(id));
    return target === undefined ? whole : `data-id=${quote}${target}${quote}`;
  });
  // Media blocks carry the media id as JSON in their comment (`<!-- cms:image {"id":12} -->`).
  out = out.replace(
    /<!--[^>]*?(?:image|gallery|media|file|video|audio|cover)[\s\S]*?-->/g,
    (comment) =>
      comment.replace(/("id":)(\d+)/g, (whole, key: string, id: string) => {
        const target = context.ids.media.get(Number(id));
        return target === undefined ? whole : `${key}${target}`;
      }),
  );
  const index = sourceIndex(context);
  return index === undefined ? out : rewriteSourceUrls(out, index, base, context.unmatched);
}

/** One source URL as the target's; a URL that matches nothing migrated is returned as it is. */
export function mapUrl(url: string, context: RemapContext): string {
  const index = sourceIndex(context);
  const mapping = index === undefined ? undefined : mapSourceUrl(url, index);
  return mapping?.kind === 'mapped' ? mapping.url : url;
}

/**
 * Sites keep non-Latin slugs percent-encoded and encode what they are given; sending the
 * encoded form would have it sanitised a second time (`%` is not a slug character), so the
 * decoded slug is sent and the target encodes it back to the same stored value.
 */
export function decodedSlug(slug: string): string {
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}

function dates(json: Readonly<Record<string, unknown>>): Record<string, string> {
  if (typeof json.date_gmt === 'string') return { date_gmt: json.date_gmt };
  if (typeof json.date === 'string') return { date: json.date };
  return {};
}

function mappedAuthor(
  json: Readonly<Record<string, unknown>>,
  context: RemapContext,
): number | undefined {
  return typeof json.author === 'number' ? context.authors.get(json.author) : undefined;
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return rawOf(value) ?? renderedOf(value);
}

function rawOf(value: unknown): string | undefined {
  const raw = (value as { raw?: unknown } | null | undefined)?.raw;
  return typeof raw === 'string' ? raw : undefined;
}

function renderedOf(value: unknown): string | undefined {
  const rendered = (value as { rendered?: unknown } | null | undefined)?.rendered;
  return typeof rendered === 'string' ? rendered : undefined;
}
