/**
 * Query strings and form bodies parsed the way servers of this interface read them:
 * `a=1` → string, `a[]=1&a[]=2` → array, `a[terms]=1&a[operator]=AND` → object. The taxonomy
 * filters' object forms depend on this.
 */
export type ParsedValue = string | ParsedValue[] | { [key: string]: ParsedValue };
export type ParsedQuery = Record<string, ParsedValue>;

const SEGMENT = /\[([^\]]*)\]/g;

export function parseQueryString(search: string): ParsedQuery {
  const out: ParsedQuery = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const open = key.indexOf('[');
    if (open <= 0 || !key.endsWith(']')) {
      out[key] = value;
      continue;
    }
    const name = key.slice(0, open);
    const segments = [...key.slice(open).matchAll(SEGMENT)].map((m) => m[1] ?? '');
    out[name] = assign(out[name], segments, value);
  }
  return out;
}

function assign(
  container: ParsedValue | undefined,
  segments: string[],
  value: string,
): ParsedValue {
  if (segments.length === 0) return value;
  const [segment, ...rest] = segments as [string, ...string[]];
  if (segment === '') {
    const list = Array.isArray(container) ? container : [];
    list.push(assign(undefined, rest, value));
    return list;
  }
  const object =
    container !== undefined && typeof container === 'object' && !Array.isArray(container)
      ? container
      : {};
  object[segment] = assign(object[segment], rest, value);
  return object;
}

/** A flat view for the request log: repeated keys become arrays. */
export function flatQuery(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const previous = out[key];
    if (previous === undefined) out[key] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else out[key] = [previous, value];
  }
  return out;
}
