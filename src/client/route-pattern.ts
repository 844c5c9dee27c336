/**
 * Route keys on the site index look like `/cms/v2/posts/(?P<id>[\d]+)` (PCRE named groups).
 * We name routes as templates, `cms/v2/posts/{id}`, and also need to match concrete paths
 * (`cms/v2/posts/12`) against them. Pure string work.
 */

export interface RoutePattern {
  /** The key as the index gives it. */
  readonly key: string;
  /** `cms/v2/posts/{id}`: no leading slash, named groups as `{name}`. */
  readonly template: string;
  /** Matches a concrete path without leading slash; undefined if the key's regex is unusable. */
  readonly regex: RegExp | undefined;
}

/** `cms/v2/posts/{id}` from `/cms/v2/posts/(?P<id>[\d]+)`; templates pass through unchanged. */
export function routeTemplate(key: string): string {
  let out = '';
  let i = 0;
  while (i < key.length) {
    const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(key.slice(i));
    if (named) {
      out += `{${named[1]}}`;
      i = closingParen(key, i) + 1;
      continue;
    }
    out += key[i];
    i += 1;
  }
  return out.replace(/^\/+/, '').replace(/\/+$/, '');
}

export function compileRoute(key: string): RoutePattern {
  const template = routeTemplate(key);
  return { key, template, regex: toRegex(key) };
}

/** Whether `path` (a template or a concrete path) names the route `pattern`. */
export function routeMatches(pattern: RoutePattern, path: string): boolean {
  const clean = path.replace(/^\/+/, '').replace(/\/+$/, '');
  if (clean === pattern.template) return true;
  return pattern.regex?.test(clean) ?? false;
}

function toRegex(key: string): RegExp | undefined {
  let source = '';
  let i = 0;
  const trimmed = key.replace(/^\/+/, '').replace(/\/+$/, '');
  while (i < trimmed.length) {
    const rest = trimmed.slice(i);
    const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
    if (named) {
      // PCRE `(?P<name>` is JavaScript `(?<name>`.
      source += `(?<${named[1]}>`;
      i += named[0].length;
      continue;
    }
    const brace = /^\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(rest);
    if (brace) {
      source += `(?<${brace[1]}>[^/]+)`;
      i += brace[0].length;
      continue;
    }
    source += trimmed[i];
    i += 1;
  }
  try {
    return new RegExp(`^${source}$`);
  } catch {
    return undefined;
  }
}

/** Index of the `)` closing the group that opens at `start`, honouring escapes and classes. */
function closingParen(text: string, start: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = start; i < text.length; i += 1) {
    const c = text[i];
    if (c === '\\') {
      i += 1;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') depth += 1;
    else if (c === ')') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return text.length - 1;
}
