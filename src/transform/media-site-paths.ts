/**
 * Local names for mirrored media files: `/media/{first 16 hex of sha256}-{safe name}`. The
 * hash makes names unique and content-addressed (a changed file gets a new name, so browsers
 * never see a stale cached copy); the readable tail keeps the original file name where it is
 * safe. Pure, shared by the transform (links) and the build (files).
 */
const MAX_NAME_CHARS = 80;

/** The folder of the site the media copies go to (reserved: no item path may start with it). */
export const MEDIA_FOLDER = '/media/';

export function mediaSitePath(url: string, sha256: string): string {
  return `${MEDIA_FOLDER}${sha256.slice(0, 16)}-${safeFileName(url)}`;
}

function safeFileName(url: string): string {
  let last = '';
  try {
    const pathname = new URL(url).pathname;
    last = pathname.slice(pathname.lastIndexOf('/') + 1);
    last = decodeURIComponent(last);
    // An encoded separator decodes to a path: only its last part can name the file.
    last = last.slice(Math.max(last.lastIndexOf('/'), last.lastIndexOf('\\')) + 1);
  } catch {
    // An unparsable URL or a bad escape: the hash alone still names the file.
  }
  const dot = last.lastIndexOf('.');
  const stem = dot > 0 ? last.slice(0, dot) : last;
  const extension = dot > 0 ? last.slice(dot + 1) : '';
  const cleanStem = stem
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_NAME_CHARS);
  const cleanExtension = /^[A-Za-z0-9]{1,8}$/.test(extension) ? extension.toLowerCase() : 'bin';
  return `${cleanStem || 'file'}.${cleanExtension}`;
}
