/**
 * Which local files a page's HTML references. The build copies only media that public content
 * uses (a file that only a draft, private or protected item uses is as private as the item);
 * the transform records each item's references so that the build need not read every page.
 */
import { decodeEntities } from '../store/plain-text.js';
import { normalizeSitePath } from './site-paths.js';

const URL_ATTRIBUTE = /\s(src|href|poster|srcset)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const BASE_HOST = 'site.invalid';

/**
 * Site paths (canonical) of everything `html` links or embeds through a relative or
 * root-relative URL, resolved against the page at `pageSitePath`. Absolute and
 * protocol-relative URLs point elsewhere and are ignored.
 */
export function localReferences(html: string, pageSitePath: string): Set<string> {
  const found = new Set<string>();
  // Made at the first URL attribute: most excerpts have none, and a build asks for every
  // public post's (a `URL` each was ~0.1 s of a one-edit run at 10,000 posts).
  let base: URL | undefined;
  for (const match of html.matchAll(URL_ATTRIBUTE)) {
    if (base === undefined) {
      try {
        base = new URL(`http://${BASE_HOST}${pageSitePath}`);
      } catch {
        return found;
      }
    }
    const name = (match[1] ?? '').toLowerCase();
    const value = decodeEntities(match[2] ?? match[3] ?? '');
    const urls = name === 'srcset' ? srcsetUrls(value) : [value.trim()];
    for (const url of urls) {
      const sitePath = resolveLocal(url, base);
      if (sitePath !== undefined) found.add(sitePath);
    }
  }
  return found;
}

function srcsetUrls(srcset: string): string[] {
  return srcset
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .filter((url) => url !== '');
}

function resolveLocal(url: string, base: URL): string | undefined {
  if (url === '' || url.startsWith('#') || url.startsWith('//') || SCHEME.test(url))
    return undefined;
  try {
    const resolved = new URL(url, base);
    return resolved.host === BASE_HOST ? normalizeSitePath(resolved.pathname) : undefined;
  } catch {
    return undefined;
  }
}
