import { itemLink, uploadsUrl } from './render.js';
import { pick, randomInt, rngFor } from './rng.js';
import type { Rng } from './rng.js';
import type { SeedText } from './seed-text.js';
import type { LangStore, StoredItem, StoredRevision } from './store.js';

/**
 * The rich part of the seed: HTML bodies with headings, an image with srcset, internal links
 * and embeddable URLs, and the revision history (older drafts, then the current text, plus an
 * autosave) of the items that have one.
 */
const DAY = 86_400;

export interface RevisionPlan {
  readonly revisionIds: readonly number[];
  readonly autosaveId: number | undefined;
}

export interface ContentContext {
  readonly seed: string;
  readonly base: string;
}

function youtubeId(rng: Rng): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let id = '';
  for (let i = 0; i < 11; i++) id += alphabet[Math.floor(rng() * alphabet.length)];
  return id;
}

/** Rich HTML: headings, an image with srcset, internal links and embeddable URLs. */
export function richContent(
  options: ContentContext,
  store: LangStore,
  text: SeedText,
  item: StoredItem,
  index: number,
  linkable: readonly StoredItem[],
): string {
  const rng = rngFor(options.seed, store.settings.lang, item.type, 'content', index);
  const paragraph = (html: string): string =>
    `<!-- cms:paragraph -->\n<p>${html}</p>\n<!-- /cms:paragraph -->`;
  const heading = (level: number, words: string): string =>
    `<!-- cms:heading${level === 2 ? '' : ` {"level":${level}}`} -->\n<h${level} class="cms-block-heading">${words}</h${level}>\n<!-- /cms:heading -->`;
  const link = (target: StoredItem | undefined): string =>
    target ? `<a href="${itemLink(store, options.base, target)}">${target.title}</a>` : '';
  const others = linkable.filter((candidate) => candidate.id !== item.id);
  const parts: string[] = [
    paragraph(
      `${pick(rng, text.sentences)} ${others.length ? `${text.readMore}: ${link(pick(rng, others))}.` : ''}`,
    ),
    heading(2, text.headings[index % text.headings.length] as string),
    paragraph(`${pick(rng, text.sentences)} ${pick(rng, text.sentences)}`),
  ];
  const image = item.featuredMedia ? store.getItem('attachment', item.featuredMedia) : undefined;
  if (image?.media?.width && image.media.height) {
    const { media } = image;
    const directory = media.file.slice(0, media.file.lastIndexOf('/') + 1);
    const full = uploadsUrl(options.base, store.settings.lang, media.file);
    const medium = media.sizes.find((size) => size.name === 'medium');
    const srcset = [`${full} ${media.width}w`];
    if (medium)
      srcset.push(
        `${uploadsUrl(options.base, store.settings.lang, directory + medium.file)} ${medium.width}w`,
      );
    parts.push(
      `<!-- cms:image {"id":${image.id},"sizeSlug":"full","linkDestination":"none"} -->\n` +
        `<figure class="cms-block-image size-full"><img src="${full}" alt="${media.altText}" class="cms-image-${image.id}" width="${media.width}" height="${media.height}" srcset="${srcset.join(', ')}" sizes="(max-width: ${media.width}px) 100vw, ${media.width}px" /><figcaption class="cms-element-caption">${media.caption}</figcaption></figure>\n` +
        `<!-- /cms:image -->`,
    );
  }
  parts.push(heading(3, text.headings[(index + 2) % text.headings.length] as string));
  if (index % 2 === 0) {
    const url = `https://www.youtube.com/watch?v=${youtubeId(rng)}`;
    parts.push(
      `<!-- cms:embed {"url":"${url}","type":"video","providerNameSlug":"youtube"} -->\n` +
        `<figure class="cms-block-embed is-type-video is-provider-youtube cms-block-embed-youtube"><div class="cms-block-embed__wrapper">\n${url}\n</div></figure>\n` +
        `<!-- /cms:embed -->`,
    );
  }
  if (index % 3 === 0)
    parts.push(`<p>https://vimeo.com/${randomInt(rng, 10_000_000, 99_999_999)}</p>`);
  if (index % 5 === 0)
    parts.push(
      `<p>https://x.com/cmsmirror/status/${randomInt(rng, 1_000_000_000, 1_999_999_999)}</p>`,
    );
  parts.push(
    paragraph(`${pick(rng, text.sentences)} ${link(pick(rng, others.length ? others : [item]))}`),
  );
  return parts.join('\n\n');
}

export function revisionsFor(
  planned: RevisionPlan,
  item: StoredItem,
  text: SeedText,
): StoredRevision[] {
  const count = planned.revisionIds.length;
  const firstParagraph = item.content.split('\n\n')[0] ?? '';
  const out: StoredRevision[] = planned.revisionIds.map((id, k) => {
    const latest = k === count - 1;
    const at = item.modifiedGmt - (count - 1 - k) * DAY;
    return {
      id,
      parent: item.id,
      kind: 'revision',
      author: k === 0 ? 1 : item.author,
      dateGmt: at,
      modifiedGmt: at,
      title: latest ? item.title : `${text.draftPrefix}${item.title}`,
      content: latest ? item.content : firstParagraph,
      excerpt: latest ? item.excerpt : '',
    };
  });
  if (planned.autosaveId !== undefined) {
    out.push({
      id: planned.autosaveId,
      parent: item.id,
      kind: 'autosave',
      author: 2,
      dateGmt: item.modifiedGmt + 3600,
      modifiedGmt: item.modifiedGmt + 3600,
      title: `${item.title}${text.autosaveSuffix}`,
      content: `${item.content}\n\n<!-- cms:paragraph -->\n<p>${text.sentences[0]}</p>\n<!-- /cms:paragraph -->`,
      excerpt: item.excerpt,
    });
  }
  return out;
}
