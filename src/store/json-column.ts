/**
 * JSON columns that the store owns on behalf of a stage (cursor, counters, meta, fields).
 * Parsing failures mean the file was edited by hand or damaged; the raw text is then kept
 * visible to the caller instead of being dropped.
 */
export function toJsonColumn(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

export function fromJsonColumn(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { unparsable: text };
  }
}
