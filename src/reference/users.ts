import { rngFor } from './rng.js';

/**
 * The two accounts of the reference site. Application passwords look like real ones
 * (24 alphanumerics in six groups of four) and are derived from the seed, so a demo prints
 * the same credentials every time.
 */
export interface User {
  readonly id: number;
  readonly login: string;
  readonly name: string;
  readonly slug: string;
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
      password: applicationPassword(seed, 'demo-admin'),
    },
    {
      id: 2,
      login: 'second-editor',
      name: 'Second Editor',
      slug: 'second-editor',
      password: applicationPassword(seed, 'second-editor'),
    },
  ];
}
