import { createHash } from 'node:crypto';
import { readImageSize } from './image-size.js';
import { encodeStripePng } from './png.js';
import type { StripePattern } from './png.js';
import { uploadsUrl } from './render.js';
import type { LangStore, MediaInfo, MediaSize } from './store.js';

/**
 * The files behind media items: registration under their URL path, PNG generation on first
 * use (so starting a site stays fast), and the file types uploads may have.
 */
export const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
};

/** The intermediate sizes the site generates for images, as [name, width, height, crop]. */
export const IMAGE_SIZES: readonly (readonly [string, number, number, boolean])[] = [
  ['thumbnail', 150, 150, true],
  ['medium', 300, 300, false],
];

/** Path part of a URL, as clients will request it (percent-encoded, dot segments resolved). */
export function urlPath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

export function registerFile(
  store: LangStore,
  base: string,
  file: string,
  entry: { owner: number; mimeType: string; lastModified: number; bytes: () => Buffer },
): void {
  let cache: Buffer | undefined;
  const lazy = (): Buffer => (cache ??= entry.bytes());
  store.files.set(urlPath(uploadsUrl(base, store.settings.lang, file)), { ...entry, bytes: lazy });
}

/** Sizes of an image that fit inside each configured box (cropped ones are exact). */
export function imageSizes(
  fileName: string,
  mimeType: string,
  width: number,
  height: number,
): MediaSize[] {
  const dot = fileName.lastIndexOf('.');
  const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
  const extension = dot > 0 ? fileName.slice(dot) : '';
  const sizes: MediaSize[] = [];
  for (const [name, boxWidth, boxHeight, crop] of IMAGE_SIZES) {
    if (width <= boxWidth && height <= boxHeight) continue;
    const scale = Math.min(boxWidth / width, boxHeight / height);
    const w = crop ? boxWidth : Math.max(1, Math.round(width * scale));
    const h = crop ? boxHeight : Math.max(1, Math.round(height * scale));
    sizes.push({ name, file: `${stem}-${w}x${h}${extension}`, width: w, height: h, mimeType });
  }
  return sizes;
}

/** Registers a seeded image and its sizes, each a stripe PNG generated on first request. */
export function registerSeedImage(
  store: LangStore,
  base: string,
  owner: number,
  media: MediaInfo,
  pattern: Omit<StripePattern, 'width' | 'height'>,
  lastModified: number,
): void {
  const directory = media.file.slice(0, media.file.lastIndexOf('/') + 1);
  const all = [
    { file: media.file, width: media.width ?? 1, height: media.height ?? 1 },
    ...media.sizes.map((size) => ({
      file: directory + size.file,
      width: size.width,
      height: size.height,
    })),
  ];
  for (const { file, width, height } of all) {
    registerFile(store, base, file, {
      owner,
      mimeType: 'image/png',
      lastModified,
      bytes: () =>
        encodeStripePng({
          ...pattern,
          width,
          height,
          stripe: Math.max(2, pattern.stripe * (width / 640)),
        }),
    });
  }
}

/** A tiny valid one-page PDF, so non-image media are real files too. */
export function minimalPdf(title: string): Buffer {
  const text = title.replace(/[()\\]/g, ' ').replace(/[^\x20-\x7e]/g, '?');
  const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** Upload file names as servers clean them: no directories, safe characters, lowercase extension. */
export function sanitizeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, '-')
    .replace(/[^A-Za-z0-9._-]/g, '')
    .replace(/^[.-]+/, '')
    .replace(/-+/g, '-');
  return cleaned;
}

export function etagOf(bytes: Buffer): string {
  return `"${createHash('sha1').update(bytes).digest('hex').slice(0, 16)}"`;
}

export { readImageSize };
