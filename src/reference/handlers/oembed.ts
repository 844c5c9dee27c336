import { createHash } from 'node:crypto';
import { escapeHtml, homeUrl, itemLink, stripTags, uploadsUrl } from '../render.js';
import { RestError } from '../rest-error.js';
import { json } from '../route-types.js';
import type { Handler, HandlerContext, RestResponse } from '../route-types.js';
import type { StoredItem } from '../store.js';

/**
 * oEmbed: `/embed` answers for the site's own published posts and pages; `/proxy` (editors
 * only) answers for those and for a local fake provider that knows a few well-known
 * video/social URL shapes, since the reference has no internet. Anything else: 404
 * oembed_invalid_url, as for an external URL that cannot be fetched.
 */
type OEmbed = Record<string, string | number | null>;

function notFound(): RestError {
  return new RestError(404, 'oembed_invalid_url', 'Not Found');
}

/** absint(): how servers read the untyped `maxwidth` of the embed route. */
function absint(value: unknown, fallback: number): number {
  const parsed = Number.parseInt(String(value ?? ''), 10);
  return Number.isNaN(parsed) ? fallback : Math.abs(parsed);
}

/** The published post or page whose `link` is `url` (pretty links and `?p=`/`?page_id=`). */
export function findOwnItem(context: HandlerContext, url: string): StoredItem | undefined {
  const { store, site } = context;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const home = homeUrl(site.base, store.settings.lang);
  if (!`${parsed.origin}${parsed.pathname}`.startsWith(home)) return undefined;
  const byId = parsed.searchParams.get('p') ?? parsed.searchParams.get('page_id');
  const candidates: StoredItem[] = [];
  if (byId !== null) {
    const item = store.items.get(Number(byId));
    if (item) candidates.push(item);
  } else {
    const segments = parsed.pathname.split('/').filter(Boolean);
    const slug = decodeURIComponent(segments[segments.length - 1] ?? '');
    for (const type of ['post', 'page'] as const) {
      for (const item of store.indexes[type].all) if (item.slug === slug) candidates.push(item);
    }
  }
  const wanted = `${parsed.origin}${parsed.pathname.replace(/\/?$/, '/')}`;
  return candidates.find(
    (item) =>
      item.type !== 'attachment' &&
      item.status === 'publish' &&
      item.password === '' &&
      (byId !== null || itemLink(store, site.base, item) === wanted),
  );
}

function ownEmbed(
  context: HandlerContext,
  item: StoredItem,
  maxwidth: number,
  maxheight?: number,
): OEmbed {
  const { store, site } = context;
  const width = Math.min(Math.max(maxwidth, 200), 600);
  let height = Math.max(Math.ceil((width / 16) * 9), 200);
  if (maxheight !== undefined && maxheight > 0) height = Math.min(height, maxheight);
  const link = itemLink(store, site.base, item);
  const title = stripTags(item.title);
  const author = site.users.find((user) => user.id === item.author);
  const secret = createHash('sha1').update(`${site.seed}:${item.id}`).digest('hex').slice(0, 10);
  const out: OEmbed = {
    version: '1.0',
    provider_name: store.settings.name,
    provider_url: homeUrl(site.base, store.settings.lang),
    author_name: author?.name ?? '',
    author_url: `${homeUrl(site.base, store.settings.lang)}author/${author?.slug ?? ''}/`,
    title,
    type: 'rich',
    width,
    height,
    html:
      `<blockquote class="cms-embedded-content" data-secret="${secret}"><a href="${link}">${escapeHtml(title)}</a></blockquote>` +
      `<iframe sandbox="allow-scripts" security="restricted" src="${link}embed/#?secret=${secret}" data-secret="${secret}" ` +
      `width="${width}" height="${height}" title="${escapeHtml(`${title} — ${store.settings.name}`)}" frameborder="0" ` +
      `marginwidth="0" marginheight="0" scrolling="no" class="cms-embedded-content"></iframe>`,
  };
  const featured = item.featuredMedia ? store.getItem('attachment', item.featuredMedia) : undefined;
  if (featured?.media?.width) {
    out.thumbnail_url = uploadsUrl(site.base, store.settings.lang, featured.media.file);
    out.thumbnail_width = featured.media.width;
    out.thumbnail_height = featured.media.height ?? null;
  }
  return out;
}

function fitVideo(maxwidth: number, maxheight: number | undefined): [number, number] {
  let width = Math.min(maxwidth > 0 ? maxwidth : 640, 640);
  let height = Math.round((width * 9) / 16);
  if (maxheight !== undefined && maxheight > 0 && height > maxheight) {
    height = maxheight;
    width = Math.round((height * 16) / 9);
  }
  return [width, height];
}

/** The fake provider: well-known URL shapes only, answered without any network access. */
export function providerEmbed(
  url: string,
  maxwidth: number,
  maxheight?: number,
): OEmbed | undefined {
  const [width, height] = fitVideo(maxwidth, maxheight);
  let match =
    /^https?:\/\/(?:www\.|m\.)?youtube\.com\/watch\?(?:.*&)?v=([\w-]{6,})/.exec(url) ??
    /^https?:\/\/youtu\.be\/([\w-]{6,})/.exec(url);
  if (match) {
    const id = match[1] as string;
    return {
      type: 'video',
      version: '1.0',
      title: `Video ${id}`,
      author_name: 'Demo Channel',
      author_url: 'https://www.youtube.com/@demo-channel',
      provider_name: 'YouTube',
      provider_url: 'https://www.youtube.com/',
      width,
      height,
      thumbnail_url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`,
      thumbnail_width: 480,
      thumbnail_height: 360,
      html: `<iframe width="${width}" height="${height}" src="https://www.youtube.com/embed/${id}?feature=oembed" frameborder="0" allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen title="Video ${id}"></iframe>`,
    };
  }
  match = /^https?:\/\/(?:www\.)?vimeo\.com\/(\d+)/.exec(url);
  if (match) {
    const id = match[1] as string;
    return {
      type: 'video',
      version: '1.0',
      provider_name: 'Vimeo',
      provider_url: 'https://vimeo.com/',
      title: `Vimeo video ${id}`,
      author_name: 'Demo Studio',
      author_url: 'https://vimeo.com/demostudio',
      duration: 120,
      width,
      height,
      html: `<iframe src="https://player.vimeo.com/video/${id}?dnt=1&amp;app_id=122963" width="${width}" height="${height}" frameborder="0" allow="autoplay; fullscreen; picture-in-picture; clipboard-write" title="Vimeo video ${id}"></iframe>`,
      video_id: Number(id),
    };
  }
  match = /^https?:\/\/(?:www\.)?(?:twitter|x)\.com\/(\w+)\/status\/(\d+)/.exec(url);
  if (match) {
    const [, user, id] = match as unknown as [string, string, string];
    return {
      url: `https://twitter.com/${user}/status/${id}`,
      author_name: user,
      author_url: `https://twitter.com/${user}`,
      html: `<blockquote class="twitter-tweet" data-width="550" data-dnt="true"><p lang="en" dir="ltr">Post ${id} by @${user}</p>&mdash; ${user} (@${user}) <a href="https://twitter.com/${user}/status/${id}">January 1, 2024</a></blockquote>\n<script async src="https://platform.twitter.com/widgets.js" charset="utf-8"></script>\n`,
      width: 550,
      height: null,
      type: 'rich',
      cache_age: '3153600000',
      provider_name: 'Twitter',
      provider_url: 'https://twitter.com',
      version: '1.0',
    };
  }
  match = /^https?:\/\/open\.spotify\.com\/(track|album|playlist|episode)\/(\w+)/.exec(url);
  if (match) {
    const [, kind, id] = match as unknown as [string, string, string];
    return {
      html: `<iframe style="border-radius: 12px" width="100%" height="152" title="Spotify Embed: ${kind} ${id}" frameborder="0" allowfullscreen allow="autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture" loading="lazy" src="https://open.spotify.com/embed/${kind}/${id}?utm_source=oembed"></iframe>`,
      width: 456,
      height: 152,
      version: '1.0',
      provider_name: 'Spotify',
      provider_url: 'https://spotify.com',
      type: 'rich',
      title: `Spotify ${kind} ${id}`,
      cache_age: 3600,
    };
  }
  return undefined;
}

function toXml(data: OEmbed): string {
  const fields = Object.entries(data)
    .filter(([, value]) => value !== null)
    .map(([key, value]) => `<${key}>${escapeHtml(String(value))}</${key}>`)
    .join('');
  return `<?xml version="1.0"?>\n<oembed>${fields}</oembed>\n`;
}

function respond(data: OEmbed, format: unknown): RestResponse {
  if (format === 'xml') {
    return {
      status: 200,
      body: data,
      headers: {},
      raw: { contentType: 'text/xml; charset=UTF-8', text: toXml(data) },
    };
  }
  return json(data);
}

export const oembedEmbedHandler: Handler = (context) => {
  const { params } = context;
  const item = findOwnItem(context, String(params.url));
  if (!item) throw notFound();
  return respond(ownEmbed(context, item, absint(params.maxwidth, 600)), params.format);
};

export const oembedProxyHandler: Handler = (context) => {
  const { params, user } = context;
  if (!user)
    throw new RestError(
      401,
      'rest_forbidden',
      'Sorry, you are not allowed to make proxied oEmbed requests.',
    );
  const url = String(params.url);
  const maxwidth = params.maxwidth as number;
  const maxheight = params.maxheight as number | undefined;
  const own = findOwnItem(context, url);
  const data = own
    ? ownEmbed(context, own, maxwidth, maxheight)
    : providerEmbed(url, maxwidth, maxheight);
  if (!data) throw notFound();
  return respond(data, params.format);
};
