/**
 * The oEmbed response shape, and a tolerant reader for what a provider actually sends.
 * Providers are not ours: numbers arrive as strings, fields are missing or of the wrong type.
 * Reading never throws; a value that is not a usable response reads as `null`.
 */

export type OEmbedType = 'photo' | 'video' | 'link' | 'rich';

/** An oEmbed 1.0 response, reduced to the fields transform uses (others are dropped). */
export interface OEmbedResponse {
  type: OEmbedType;
  version?: string;
  title?: string;
  author_name?: string;
  author_url?: string;
  provider_name?: string;
  provider_url?: string;
  /** Seconds the response may be cached. */
  cache_age?: number;
  thumbnail_url?: string;
  thumbnail_width?: number;
  thumbnail_height?: number;
  /** The image of a `photo` response. */
  url?: string;
  /** The markup of a `video` or `rich` response. Untrusted: see `sanitizeProviderHtml`. */
  html?: string;
  width?: number;
  height?: number;
}

const TYPES: readonly OEmbedType[] = ['photo', 'video', 'link', 'rich'];
const STRING_FIELDS = [
  'version',
  'title',
  'author_name',
  'author_url',
  'provider_name',
  'provider_url',
  'thumbnail_url',
  'url',
  'html',
] as const;
const NUMBER_FIELDS = [
  'cache_age',
  'thumbnail_width',
  'thumbnail_height',
  'width',
  'height',
] as const;

/**
 * Reads a parsed JSON value as an oEmbed response. An unknown or missing `type` reads as
 * `rich` when there is `html`, `photo` when there is a `url`, else `link`; a value that is
 * not an object reads as `null`.
 */
export function parseOEmbedResponse(value: unknown): OEmbedResponse | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const raw = value as Record<string, unknown>;
  const response: OEmbedResponse = { type: 'link' };

  for (const field of STRING_FIELDS) {
    const fieldValue = raw[field];
    if (typeof fieldValue === 'string') response[field] = fieldValue;
  }
  for (const field of NUMBER_FIELDS) {
    const fieldValue = toNumber(raw[field]);
    if (fieldValue !== undefined) response[field] = fieldValue;
  }

  const type = typeof raw.type === 'string' ? raw.type.toLowerCase() : '';
  if ((TYPES as readonly string[]).includes(type)) response.type = type as OEmbedType;
  else if (response.html !== undefined) response.type = 'rich';
  else if (response.url !== undefined) response.type = 'photo';
  return response;
}

function toNumber(value: unknown): number | undefined {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  return Number.isFinite(number) && number >= 0 ? number : undefined;
}
