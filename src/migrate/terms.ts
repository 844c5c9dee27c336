import { MIGRATE_ORDER } from '../collections.js';
import type { SourceItem } from './planner.js';

/**
 * Category and tag ids mean nothing on another site (and the interface has no routes to
 * create terms), so a migration leaves them out unless told the target shares them. What is
 * left out is said once per collection, with the ids. Pure.
 */

const TAXONOMIES = [
  ['categories', 'category'],
  ['tags', 'tag'],
] as const;

export function droppedTermWarnings(items: readonly SourceItem[], keepTerms: boolean): string[] {
  if (keepTerms) return [];
  const warnings: string[] = [];
  for (const type of MIGRATE_ORDER) {
    const parts: string[] = [];
    for (const [field, noun] of TAXONOMIES) {
      const ids = new Set<number>();
      let carriers = 0;
      for (const item of items) {
        const value = item.type === type ? item.json[field] : undefined;
        if (!Array.isArray(value) || value.length === 0) continue;
        carriers += 1;
        for (const id of value) if (typeof id === 'number') ids.add(id);
      }
      if (ids.size > 0) {
        const sorted = [...ids].sort((a, b) => a - b).join(', ');
        parts.push(`${noun} ids ${sorted} (on ${carriers} item(s))`);
      }
    }
    if (parts.length > 0) {
      warnings.push(
        `${type}: ${parts.join('; ')} not migrated: term ids mean nothing on another site and the interface has no routes for terms (the target gives its default category); --keep-terms sends them as they are to a target that shares them`,
      );
    }
  }
  return warnings;
}
