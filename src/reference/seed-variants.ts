import { homeUrl, itemLink, uploadsUrl } from './render.js';
import type { LangStore, StoredItem } from './store.js';

/**
 * Content that refers to media and items the ways deployed sites' content does (see
 * observed-behaviour.md, Items): a size variant in `src` and `srcset`, the same file under
 * another path prefix of the same host (another language's, or none), under the other
 * scheme, as a path-relative URL, links to a full-size image and to a PDF in the uploads, and
 * short links (`?p=ID`, `?page_id=ID`) to a public post, a public page and a draft. Appended
 * to a few items when the site is started with `urlVariants`.
 */
export interface VariantContext {
  readonly base: string;
  readonly languages: readonly string[];
}

/** Which seeded items carry the block: the first rich post and the first page. */
export const VARIANT_POST_INDEX = 0;
export const VARIANT_PAGE_INDEX = 0;

export function variantContent(
  context: VariantContext,
  store: LangStore,
  item: StoredItem,
  targets: { post?: StoredItem; page?: StoredItem; draft?: StoredItem },
  otherStore?: LangStore,
): string {
  const lang = store.settings.lang;
  const image = firstImage(store, item);
  const pdf = store.indexes.attachment.all.find(
    (media) => media.media?.mimeType === 'application/pdf',
  );
  const parts: string[] = [];
  if (image?.media) {
    const { media } = image;
    const directory = media.file.slice(0, media.file.lastIndexOf('/') + 1);
    const size = (name: string) => media.sizes.find((entry) => entry.name === name);
    const medium = size('medium');
    const thumbnail = size('thumbnail');
    const full = uploadsUrl(context.base, lang, media.file);
    const other = context.languages.find((code) => code !== lang);
    // The same file under another language's prefix (or none on a one-language site).
    const otherPrefix = other
      ? uploadsUrl(context.base, other, media.file)
      : `${context.base}/cms-content/uploads/${media.file}`;
    const noPrefix = `${context.base}/cms-content/uploads/${media.file}`;
    const mediumUrl = medium ? uploadsUrl(context.base, lang, directory + medium.file) : full;
    const thumbUrl = thumbnail ? uploadsUrl(context.base, lang, directory + thumbnail.file) : full;
    // The other scheme on a URL nothing else spells: only the site's own scheme fetches it.
    const mediumNoPrefix = mediumUrl.replace(`/${lang}/cms-content/`, '/cms-content/');
    const srcset = [
      `${otherScheme(mediumNoPrefix)} ${medium?.width ?? media.width}w`,
      `${noPrefix} ${media.width}w`,
    ];
    parts.push(
      `<!-- cms:image {"id":${image.id},"sizeSlug":"medium","linkDestination":"media"} -->\n` +
        `<figure class="cms-block-image size-medium"><a href="${full}"><img src="${rootRelative(mediumUrl)}" alt="${media.altText}" class="cms-image-${image.id}" srcset="${srcset.join(', ')}" sizes="(max-width: 300px) 100vw, 300px" /></a></figure>\n` +
        `<!-- /cms:image -->`,
      `<!-- cms:paragraph -->\n<p><img src="${pathRelative(itemLink(store, context.base, item), thumbUrl)}" alt="" width="150" height="150" /> <a href="${otherPrefix}">${media.altText}</a></p>\n<!-- /cms:paragraph -->`,
    );
  }
  // Another language's own file, under its own URL (one host serves both languages).
  const otherImage = otherStore?.indexes.attachment.all.find((media) => media.media?.width);
  if (otherStore && otherImage?.media) {
    const url = uploadsUrl(context.base, otherStore.settings.lang, otherImage.media.file);
    parts.push(
      `<!-- cms:paragraph -->\n<p><img src="${url}" alt="${otherImage.media.altText}" /></p>\n<!-- /cms:paragraph -->`,
    );
  }
  if (pdf?.media) {
    parts.push(
      `<!-- cms:file {"id":${pdf.id}} -->\n<div class="cms-block-file"><a href="${uploadsUrl(context.base, lang, pdf.media.file)}">${pdf.title}</a></div>\n<!-- /cms:file -->`,
    );
  }
  const home = homeUrl(context.base, lang);
  const links: string[] = [];
  if (targets.post)
    links.push(`<a href="${rootRelative(home)}?p=${targets.post.id}">${targets.post.title}</a>`);
  if (targets.page)
    links.push(`<a href="${home}?page_id=${targets.page.id}">${targets.page.title}</a>`);
  if (targets.draft)
    links.push(`<a href="${rootRelative(home)}?p=${targets.draft.id}">${targets.draft.title}</a>`);
  if (links.length > 0)
    parts.push(`<!-- cms:paragraph -->\n<p>${links.join(' · ')}</p>\n<!-- /cms:paragraph -->`);
  return parts.join('\n\n');
}

function firstImage(store: LangStore, item: StoredItem): StoredItem | undefined {
  const featured = item.featuredMedia ? store.getItem('attachment', item.featuredMedia) : undefined;
  if (featured?.media?.width) return featured;
  return store.indexes.attachment.all.find((media) => media.media?.width !== undefined);
}

/** `http://h/x` as `https://h/x` and back: the other scheme of the same URL. */
function otherScheme(url: string): string {
  return url.startsWith('https:') ? `http:${url.slice(6)}` : `https:${url.slice(5)}`;
}

function rootRelative(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** `to` relative to the directory of the page at `from` (`../../../cms-content/...`). */
function pathRelative(from: string, to: string): string {
  const fromParts = new URL(from).pathname.split('/').slice(1, -1);
  const toParts = new URL(to).pathname.split('/').slice(1);
  let common = 0;
  while (
    common < fromParts.length &&
    common < toParts.length - 1 &&
    fromParts[common] === toParts[common]
  )
    common += 1;
  return `${'../'.repeat(fromParts.length - common)}${toParts.slice(common).join('/')}`;
}
