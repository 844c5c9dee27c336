import { isDeepStrictEqual } from 'node:util';
import type { EditableFields } from './checkout-file.js';

/**
 * The fields of `local` that differ from `base`. A field missing from `local` is not a change:
 * deleting a line from the front matter means "leave it as it is", since the interface has no
 * way to unset a field. Pure.
 */
export function changedFields(base: EditableFields, local: EditableFields): EditableFields {
  const changed: EditableFields = {};
  for (const [name, value] of Object.entries(local)) {
    if (value === undefined) continue;
    if (!isDeepStrictEqual(normalise(name, base[name]), normalise(name, value)))
      changed[name] = value;
  }
  return changed;
}

/**
 * Values that mean the same to the site compare equal: dates with or without fractional
 * seconds (and a GMT date with or without `Z`), and id lists in any order.
 */
function normalise(name: string, value: unknown): unknown {
  if (name === 'date_gmt' && typeof value === 'string') {
    return value.replace(/\.\d+/, '').replace(/(?:Z|\+00:00)$/, '');
  }
  if (name === 'date' && typeof value === 'string') return value.replace(/\.\d+/, '');
  if ((name === 'categories' || name === 'tags') && Array.isArray(value)) {
    return [...value].sort();
  }
  return value;
}
