import { rngFor } from './rng.js';

/**
 * What a user may do (see permissions.ts): administrators and editors everything; an author
 * edits posts and media (its own), not pages; a subscriber only reads what is public.
 */
export type Role = 'administrator' | 'editor' | 'author' | 'subscriber';

/**
 * The accounts of the reference site: the demo admin, a second editor, and two users with weak
 * roles (an author and a subscriber), whose valid credentials may not read everything.
 * Application passwords look like real ones (24 alphanumerics in six groups of four) and are
 * derived from the seed, so a demo prints the same credentials every time.
 */
export interface User {
  readonly id: number;
  readonly login: string;
  readonly name: string;
  readonly slug: string;
  readonly role: Role;
  /** Application password, grouped with spaces as it is shown to users. */
  readonly password: string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function applicationPassword(seed: string, login: string): string {
  const rng = rngFor('application-password', seed, login);
  const chars: string[] = [];
  for (let i = 0; i < 24; i++) chars.push(ALPHABET[Math.floor(rng() * ALPHABET.length)] as string);
  return (chars.join('').match(/.{4}/g) as string[]).join(' ');
}

export function createUsers(seed: string): readonly User[] {
  return [
    {
      id: 1,
      login: 'demo-admin',
      name: 'Demo Admin',
      slug: 'demo-admin',
      role: 'administrator',
      password: applicationPassword(seed, 'demo-admin'),
    },
    {
      id: 2,
      login: 'second-editor',
      name: 'Second Editor',
      slug: 'second-editor',
      role: 'editor',
      password: applicationPassword(seed, 'second-editor'),
    },
    {
      id: 3,
      login: 'demo-author',
      name: 'Demo Author',
      slug: 'demo-author',
      role: 'author',
      password: applicationPassword(seed, 'demo-author'),
    },
    {
      id: 4,
      login: 'demo-subscriber',
      name: 'Demo Subscriber',
      slug: 'demo-subscriber',
      role: 'subscriber',
      password: applicationPassword(seed, 'demo-subscriber'),
    },
  ];
}
