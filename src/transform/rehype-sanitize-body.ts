/**
 * rehype plugin: nothing executable from a post or page body reaches the static site (the
 * policy is in sanitize-policy.ts). Runs first, on the body as the site rendered it, so the
 * markup the later plugins add (resolved embeds, rewritten media) is theirs and already safe.
 * Safe markup passes untouched: the same nodes, the same bytes out.
 *
 * An `<iframe>` stays only with an https `src` on an allowed embed host (as in provider
 * HTML); `srcdoc` is never kept. Comments go (old browsers read conditional comments).
 * One warning per item lists what was removed.
 */
import type { Element, ElementContent, Root, RootContent } from 'hast';
import type { VFile } from 'vfile';
import {
  isAllowedAttribute,
  isSafeStyle,
  KEPT_ELEMENTS,
  REMOVED_ELEMENTS,
} from './sanitize-policy.js';

export interface SanitizeBodyOptions {
  /** Hosts whose https iframes may stay (exact host names, lower-case). Required. */
  readonly allowedIframeHosts: readonly string[];
  /** `false` (pipeline `transform.sanitize: false`) keeps the body as the site sent it. */
  readonly enabled: boolean;
}

export function rehypeSanitizeBody(options: SanitizeBodyOptions) {
  const hosts = new Set(options.allowedIframeHosts.map((host) => host.toLowerCase()));

  return (tree: Root, file?: VFile): void => {
    if (!options.enabled) return;
    const removed = new Map<string, number>();
    const note = (what: string): void => {
      removed.set(what, (removed.get(what) ?? 0) + 1);
    };
    tree.children = cleanChildren(tree.children, { hosts, note }) as RootContent[];
    if (removed.size > 0) {
      const list = [...removed].map(([what, n]) => (n > 1 ? `${what} ×${n}` : what));
      file?.message(`Removed from the body (transform.sanitize): ${list.join(', ')}`, {
        ruleId: 'sanitized',
        source: 'cms-mirror:sanitize-body',
      });
    }
  };
}

interface Context {
  readonly hosts: ReadonlySet<string>;
  readonly note: (what: string) => void;
}

function cleanChildren(
  children: readonly (RootContent | ElementContent)[],
  context: Context,
): (RootContent | ElementContent)[] {
  const out: (RootContent | ElementContent)[] = [];
  for (const child of children) {
    if (child.type === 'comment') {
      context.note('comment');
      continue;
    }
    if (child.type !== 'element') {
      out.push(child);
      continue;
    }
    const tag = child.tagName;
    if (REMOVED_ELEMENTS.has(tag) || (tag === 'iframe' && !isAllowedFrame(child, context.hosts))) {
      context.note(`<${tag}>`);
      continue;
    }
    if (!KEPT_ELEMENTS.has(tag)) {
      // Unknown or unsafe wrappers (`form`, `button`, custom elements): their text stays.
      context.note(`<${tag}>`);
      out.push(...cleanChildren(child.children, context));
      continue;
    }
    cleanAttributes(child, context);
    if (tag === 'iframe') child.children = [];
    else child.children = cleanChildren(child.children, context) as ElementContent[];
    out.push(child);
  }
  return out;
}

function cleanAttributes(element: Element, context: Context): void {
  const properties = element.properties;
  for (const name of Object.keys(properties)) {
    const value = properties[name];
    const keep =
      isAllowedAttribute(element.tagName, name) &&
      (name !== 'style' || isSafeStyle(Array.isArray(value) ? value.join(' ') : String(value)));
    if (!keep) {
      context.note(/^on/i.test(name) ? 'event handler' : `${name.toLowerCase()} attribute`);
      delete properties[name];
    }
  }
}

function isAllowedFrame(element: Element, hosts: ReadonlySet<string>): boolean {
  const src = element.properties.src;
  if (typeof src !== 'string') return false;
  try {
    const url = new URL(src.trim());
    return url.protocol === 'https:' && hosts.has(url.hostname.toLowerCase());
  } catch {
    return false;
  }
}
