/**
 * rehype plugin: links to mirrored items become relative links into the static site.
 *
 * `a[href]`, `area[href]` and `cite` on `blockquote`/`q`/`del`/`ins` are resolved against the
 * item's remote link; when `resolveLink` knows the target, the value becomes a path relative
 * to the page (`../../about/team/#people`). Root- and protocol-relative URLs that are not
 * mirrored are made absolute so they still reach the remote site, and a warning names the
 * ones on the item's own host. Anything else (fragments, `mailto:`, other sites) is left alone.
 */
import type { Root } from 'hast';
import type { VFile } from 'vfile';
import { itemContext, parseBaseUrl } from './item-context.js';
import { isMarkedLocal, markLocal } from './rewrite-marks.js';
import type { UrlResolver } from './url-resolver.js';
import { rewriteUrl } from './url-rewrite.js';
import { walkElements } from './walk-elements.js';

export interface InternalLinksOptions {
  /** Site path of the mirrored item at an absolute URL, or `undefined`. Required. */
  readonly resolveLink: UrlResolver;
  /**
   * The item's remote link, the base for relative URLs.
   * @default file.data.cmsMirror.baseUrl (set by `processHtml`); without one, relative URLs are left alone
   */
  readonly baseUrl?: string;
  /**
   * Site path of the page being written; output URLs are relative to it.
   * @default file.data.cmsMirror.pagePath, else '/'
   */
  readonly pagePath?: string;
}

/** Which property holds a link on which elements. */
const LINK_PROPERTIES: Readonly<Record<string, string>> = {
  a: 'href',
  area: 'href',
  blockquote: 'cite',
  q: 'cite',
  del: 'cite',
  ins: 'cite',
};

export function rehypeInternalLinks(options: InternalLinksOptions) {
  const { resolveLink } = options;
  return (tree: Root, file?: VFile): void => {
    const item = itemContext(file);
    const context = {
      baseUrl: parseBaseUrl(options.baseUrl ?? item.baseUrl),
      pagePath: options.pagePath ?? item.pagePath ?? '/',
    };

    walkElements(tree, (node) => {
      const property = LINK_PROPERTIES[node.tagName];
      if (property === undefined || isMarkedLocal(node, property)) return;
      const value = node.properties[property];
      if (typeof value !== 'string') return;

      const rewrite = rewriteUrl(value, context, resolveLink);
      if (rewrite.kind === 'local') {
        node.properties[property] = rewrite.value;
        markLocal(node, property);
      } else if (rewrite.kind === 'absolute') {
        node.properties[property] = rewrite.value;
        if (rewrite.sameSite) {
          file?.message(
            `Link to ${rewrite.value} is not a mirrored item; it still points at the remote site`,
            {
              place: node.position,
              ruleId: 'unmirrored-link',
              source: 'cms-mirror:internal-links',
            },
          );
        }
      }
    });
  };
}
