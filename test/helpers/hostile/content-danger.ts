import type { Element, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';

/**
 * The test's own judgement of "executable content" in HTML, written from the browser's point
 * of view (not from the sanitiser's policy): anything that runs script, loads a document or a
 * plug-in, submits data, redirects, or re-points the page. Every hostile payload in the
 * content suite carries the marker `xss`, so template markup of the built pages (its own
 * `<script>` and `<link>`) is told apart from what came from a body.
 */
const ALWAYS_EXECUTABLE = new Set(['frame', 'frameset', 'object', 'embed', 'applet', 'portal']);

const URL_PROPERTIES = new Set([
  'href',
  'src',
  'action',
  'formAction',
  'data',
  'poster',
  'xLinkHref',
  'background',
  'cite',
  'srcSet',
]);

/** Hosts whose https iframes an embed may show (as the README lists them, a few of them). */
const EMBED_HOSTS =
  /^https:\/\/(?:www\.youtube\.com|www\.youtube-nocookie\.com|player\.vimeo\.com)\//;

export function findExecutable(html: string, options: { fragment?: boolean } = {}): string[] {
  const tree = unified()
    .use(rehypeParse, { fragment: options.fragment ?? true })
    .parse(html) as Root;
  const found: string[] = [];
  visit(tree, 'element', (node: Element) => {
    const tag = node.tagName;
    const text = JSON.stringify(node.children);
    const attrs = JSON.stringify(node.properties);
    const marked = /xss/i.test(text) || /xss/i.test(attrs);
    if (ALWAYS_EXECUTABLE.has(tag)) found.push(`<${tag}>`);
    const inert = ['base', 'style', 'link', 'svg', 'math', 'template', 'noscript', 'form', 'input'];
    if ([...inert, 'button'].includes(tag) && marked) found.push(`<${tag}> from a body`);
    // Text of a body may be quoted inertly in structured data: only an executable script counts.
    if (tag === 'script' && marked && node.properties['type'] !== 'application/ld+json')
      found.push('<script> from a body');
    if (tag === 'meta' && node.properties['httpEquiv'] !== undefined)
      found.push('<meta http-equiv>');
    if (tag === 'iframe' && !EMBED_HOSTS.test(String(node.properties['src'] ?? '')))
      found.push(`<iframe src=${String(node.properties['src'] ?? '')}>`);
    for (const [name, value] of Object.entries(node.properties)) {
      const textValue = Array.isArray(value) ? value.join(' ') : String(value);
      if (/^on/i.test(name)) found.push(`${tag}[${name}]`);
      if (name === 'srcDoc') found.push(`${tag}[srcdoc]`);
      if (name === 'style' && /xss|expression|javascript|@import|behavior|binding/i.test(textValue))
        found.push(`${tag}[style=${textValue.slice(0, 30)}]`);
      if (URL_PROPERTIES.has(name)) {
        // eslint-disable-next-line no-control-regex -- browsers drop these before the scheme
        const squeezed = textValue.replace(/[\u0000-\u0020]/g, '').toLowerCase();
        if (/(?:^|,)(?:javascript|vbscript|data|file):/.test(squeezed))
          found.push(`${tag}[${name}=${textValue.slice(0, 30)}]`);
      }
    }
  });
  return found;
}
