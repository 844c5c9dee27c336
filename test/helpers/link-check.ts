/**
 * A link checker for built sites: walks every HTML file under `output/{lang}/`, reads the URLs
 * of `href`, `src`, `srcset`, `poster` and form `action`, resolves the relative and
 * root-relative ones against the file (honouring `<base href>`), and reports those whose
 * target file does not exist. Links into a sibling language (`../es/...`) are checked against
 * `output/es/`. Absolute URLs to other origins are not checked (there is no network in tests).
 *
 * The output directory stands for the origin's root: `output/pl/about/index.html` is
 * `http://site.invalid/pl/about/`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Element, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';

export interface BrokenLink {
  /** Relative to the output directory. */
  file: string;
  url: string;
  reason: string;
}

export interface LinkReport {
  files: number;
  checked: number;
  broken: BrokenLink[];
}

const ORIGIN = 'http://site.invalid';
const URL_ATTRIBUTES: Record<string, string[]> = {
  a: ['href'],
  link: ['href'],
  img: ['src', 'srcset'],
  source: ['src', 'srcset'],
  script: ['src'],
  iframe: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  form: ['action'],
};

/** Every file under `dir`, relative, forward slashes. */
export function walkFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const parent = (entry as fs.Dirent & { parentPath?: string }).parentPath ?? entry.path;
      return path.relative(dir, path.join(parent, entry.name)).split(path.sep).join('/');
    })
    .sort();
}

/** The URLs an HTML document refers to, with its `<base href>` when it has one. */
export function documentUrls(html: string): { base: string | undefined; urls: string[] } {
  const tree = unified().use(rehypeParse).parse(html) as Root;
  let base: string | undefined;
  const urls: string[] = [];
  visit(tree, 'element', (node: Element) => {
    if (node.tagName === 'base' && typeof node.properties.href === 'string')
      base = node.properties.href;
    for (const attribute of URL_ATTRIBUTES[node.tagName] ?? []) {
      const property = attribute === 'srcset' ? 'srcSet' : attribute;
      const value = node.properties[property];
      if (value === undefined || value === null) continue;
      if (attribute === 'srcset') {
        const text = Array.isArray(value) ? value.join(',') : String(value);
        for (const candidate of text.split(',')) {
          const url = candidate.trim().split(/\s+/)[0];
          if (url) urls.push(url);
        }
      } else {
        urls.push(Array.isArray(value) ? value.join(' ') : String(value));
      }
    }
  });
  return { base, urls };
}

/**
 * Checks every HTML file of `output/{lang}/`. `outputDir` is the parent of the language
 * directories.
 */
export function checkLinks(outputDir: string, lang: string): LinkReport {
  const siteDir = path.join(outputDir, lang);
  const report: LinkReport = { files: 0, checked: 0, broken: [] };
  for (const file of walkFiles(siteDir).filter((name) => name.endsWith('.html'))) {
    report.files++;
    const relative = `${lang}/${file}`;
    const { base, urls } = documentUrls(fs.readFileSync(path.join(siteDir, file), 'utf8'));
    const documentUrl = new URL(encodeURI(relative), `${ORIGIN}/`);
    const baseUrl = base === undefined ? documentUrl : new URL(base, documentUrl);
    for (const url of urls) {
      const reason = checkUrl(outputDir, url, baseUrl);
      if (reason === 'external') continue;
      report.checked++;
      if (reason !== undefined) report.broken.push({ file: relative, url, reason });
    }
  }
  return report;
}

function checkUrl(outputDir: string, url: string, base: URL): string | undefined | 'external' {
  if (url === '') return 'empty URL';
  if (/^javascript:/i.test(url.trim())) return 'javascript: URL';
  if (url.startsWith('#')) return 'external';
  let resolved: URL;
  try {
    resolved = new URL(url, base);
  } catch {
    return 'unparseable';
  }
  if (resolved.origin !== ORIGIN) return 'external';
  let pathname: string;
  try {
    pathname = decodeURIComponent(resolved.pathname);
  } catch {
    return 'undecodable path';
  }
  const target = path.join(outputDir, ...pathname.split('/'));
  if (!path.resolve(target).startsWith(path.resolve(outputDir) + path.sep))
    return 'leaves the output directory';
  if (pathname.endsWith('/')) {
    return fs.existsSync(path.join(target, 'index.html'))
      ? undefined
      : `missing ${pathname}index.html`;
  }
  if (fs.existsSync(target) && fs.statSync(target).isFile()) return undefined;
  if (fs.existsSync(path.join(target, 'index.html'))) return undefined;
  return `missing ${pathname}`;
}
