import { timingSafeEqual } from 'node:crypto';
import type { User } from './users.js';

/**
 * Application-password authentication over HTTP Basic. Spaces in the password are ignored
 * (it is shown in groups of four). A wrong login or password gives no user at all, and
 * nothing tells which part was wrong.
 */
function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function authenticate(header: string | undefined, users: readonly User[]): User | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const login = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1).replace(/\s+/g, '');
  let found: User | undefined;
  for (const user of users) {
    // Compare every user's password so timing does not reveal which logins exist.
    const passwordMatches = sameText(user.password.replace(/\s+/g, ''), password);
    if (passwordMatches && user.login === login) found = user;
  }
  return found;
}
