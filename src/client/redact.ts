/**
 * Query parameters whose values are secrets: `password` is the per-item password of a
 * protected post (spec), the others are what people put in URLs by mistake.
 */
const SECRET_PARAMS = new Set([
  'password',
  'pass',
  'pwd',
  'token',
  'access_token',
  'key',
  'app_password',
]);

/**
 * The form of a URL that may appear in logs and errors: no `user:password@`, and secret query
 * values replaced by `***`. Works on strings that are not valid URLs too (best effort).
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/\/\/[^/@?#\s]*@/g, '//');
  }
  parsed.username = '';
  parsed.password = '';
  let changed = false;
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_PARAMS.has(name.toLowerCase())) {
      changed = true;
    }
  }
  if (!changed) return parsed.href;
  // Rebuild by hand so the parameters that are not secret keep their exact encoding.
  const query = parsed.search
    .slice(1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // keep the raw name
      }
      return SECRET_PARAMS.has(name.toLowerCase()) ? `${rawName}=***` : pair;
    })
    .join('&');
  parsed.search = `?${query}`;
  return parsed.href;
}
