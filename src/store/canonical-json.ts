import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth, so that two fetches of the same item that
 * differ only in key order hash the same (servers do not promise a key order).
 * Array order is kept: it is meaningful (`categories`, `srcset` sizes...).
 */
export function canonicalJson(value: unknown): string {
  // The native serialiser with a key-sorting replacer is about a third faster than a
  // hand-written recursive one, and escapes strings exactly as JSON.stringify does.
  return JSON.stringify(value, sortKeys) ?? 'null';
}

function sortKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) sorted[key] = record[key];
  return sorted;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The digest stored in `content_hash`: sha256 of the canonical JSON. */
export function contentHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
