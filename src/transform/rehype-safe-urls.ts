/**
 * rehype plugin: no URL with a dangerous scheme leaves transform.
 *
 * Every URL-valued property (`href`, `src`, `srcset` candidates, `poster`, `action`,
 * `formaction`, `cite`, `data`, `xlink:href`, `ping`, ...) whose scheme is not in `schemes`
 * is removed (`javascript:`, `vbscript:`, `data:` — images included —, `file:`, ...), with a
 * warning. `<base>` elements are removed too: they would re-point every relative link of the
 * static page at another host. Runs last, so nothing an earlier plugin wrote escapes it.
 *
 * Scripts, event handlers and the like in the item's own content are removed by
 * rehype-sanitize-body.ts (unless `transform.sanitize: false`); oEmbed provider HTML goes
 * through the stricter allow-list in `provider-html.ts`. This plugin runs either way.
 */
import type { Element, Root } from 'hast';
import type { VFile } from 'vfile';
import { parseSrcset, stringifySrcset } from './srcset.js';
import { isSafeUrl, SAFE_URL_SCHEMES } from './url-safety.js';
import { REMOVE, walkElements } from './walk-elements.js';

export interface SafeUrlsOptions {
  /**
   * Schemes a URL may have; relative URLs are always allowed.
   * @default SAFE_URL_SCHEMES (http, https, mailto, tel, sms, ftp)
   */
  readonly schemes?: readonly string[];
}

/** hast property names whose values are URLs (or lists of URLs). */
const URL_PROPERTIES: readonly string[] = [
  'href',
  'src',
  'poster',
  'action',
  'formAction',
  'cite',
  'data',
  'xLinkHref',
  'background',
  'longDesc',
  'codeBase',
  'manifest',
  'icon',
  'ping',
  'lowsrc',
  'dynsrc',
  'archive',
  'classId',
  'profile',
];

const ANIMATING = new Set(['animate', 'set']);

const SOURCE = 'cms-mirror:safe-urls';

export function rehypeSafeUrls(options: SafeUrlsOptions = {}) {
  const schemes = options.schemes ?? SAFE_URL_SCHEMES;

  return (tree: Root, file?: VFile): void => {
    const warn = (node: Element, what: string): void => {
      file?.message(`Removed ${what} from <${node.tagName}>: unsafe URL scheme`, {
        place: node.position,
        ruleId: 'unsafe-url',
        source: SOURCE,
      });
    };

    walkElements(tree, (node) => {
      if (node.tagName === 'base') {
        file?.message('Removed <base>: it would re-point every relative link of the page', {
          place: node.position,
          ruleId: 'base-removed',
          source: SOURCE,
        });
        return REMOVE;
      }

      const properties = node.properties;
      for (const name of URL_PROPERTIES) {
        const value = properties[name];
        if (value === undefined || value === null) continue;
        if (Array.isArray(value)) {
          const kept = value.filter((item) => isSafeUrl(String(item), schemes));
          if (kept.length !== value.length) {
            warn(node, name);
            if (kept.length === 0) delete properties[name];
            else properties[name] = kept;
          }
        } else if (!isSafeUrl(String(value), schemes)) {
          warn(node, name);
          delete properties[name];
        }
      }

      // SVG animation can set `href` to `values`/`to`/`from`: the same URL rule applies.
      if (ANIMATING.has(node.tagName) && /href$/i.test(String(properties.attributeName ?? ''))) {
        for (const name of ['values', 'to', 'from']) {
          const value = properties[name];
          if (value === undefined || value === null) continue;
          const parts = String(value).split(';');
          if (parts.some((part) => !isSafeUrl(part, schemes))) {
            warn(node, name);
            delete properties[name];
          }
        }
      }

      const srcset = properties.srcSet;
      if (srcset !== undefined && srcset !== null) {
        const candidates = parseSrcset(Array.isArray(srcset) ? srcset.join(',') : String(srcset));
        const kept = candidates.filter((candidate) => isSafeUrl(candidate.url, schemes));
        if (kept.length !== candidates.length) {
          warn(node, 'srcset candidates');
          if (kept.length === 0) delete properties.srcSet;
          else properties.srcSet = stringifySrcset(kept);
        }
      }
    });
  };
}
