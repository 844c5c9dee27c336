/**
 * Marks on elements whose URL attribute already points into the local site. Later plugins
 * resolve URLs against the item's REMOTE link; a local relative path read that way would
 * name a wrong remote URL, so they must skip what an earlier plugin rewrote.
 *
 * A WeakMap rather than `node.data`: the marks never reach the output or the cache, and they
 * vanish with the tree.
 */
import type { Element } from 'hast';

const marks = new WeakMap<Element, Set<string>>();

/** Records that `property` of `node` is a local relative URL now. */
export function markLocal(node: Element, property: string): void {
  let properties = marks.get(node);
  if (properties === undefined) {
    properties = new Set();
    marks.set(node, properties);
  }
  properties.add(property);
}

/** Whether `property` of `node` was rewritten to a local URL by an earlier plugin. */
export function isMarkedLocal(node: Element, property: string): boolean {
  return marks.get(node)?.has(property) ?? false;
}
