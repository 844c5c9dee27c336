import { collectionRoute, ITEM_TYPES } from '../collections.js';
import { AccessError, AuthError, HttpError } from '../errors.js';
import type { CmsClient } from './cms-client.js';
import type { Credentials } from './options.js';

/** Names of the environment variables that hold the credentials. */
export interface CredentialNames {
  /** @default 'CMS_USER' */
  readonly user?: string;
  /** @default 'CMS_APP_PASSWORD' */
  readonly password?: string;
}

const DEFAULT_USER_VAR = 'CMS_USER';
const DEFAULT_PASSWORD_VAR = 'CMS_APP_PASSWORD';

/** The `Authorization` value for application passwords: HTTP Basic over UTF-8. */
export function basicAuthHeader(credentials: Credentials): string {
  return `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`, 'utf8').toString('base64')}`;
}

export interface VerifyOptions {
  /** Names shown in the error message. @default CMS_USER / CMS_APP_PASSWORD */
  readonly names?: CredentialNames;
  /** A route that answers only to valid credentials. @default the registry's first collection, with context=edit */
  readonly route?: string;
}

/**
 * Deployed servers answer a public route to a wrong password as if anonymous, so a crawl with
 * bad credentials would silently miss drafts. One request that needs credentials settles it:
 * 401 → AuthError that does not say which part is wrong; 403 → the credentials are valid but
 * the user's role may not edit posts (a subscriber): AccessError naming what was refused.
 */
export async function verifyCredentials(
  client: CmsClient,
  options: VerifyOptions = {},
): Promise<void> {
  if (!client.hasCredentials) {
    const { user, password } = credentialVars(options.names);
    throw new AuthError(`no credentials: set ${user} and ${password} (an application password)`);
  }
  try {
    await client.get(options.route ?? collectionRoute(ITEM_TYPES[0]!), {
      context: 'edit',
      per_page: 1,
    });
  } catch (error) {
    throw credentialRefusal(error, options.names) ?? error;
  }
}

/**
 * What a failed `context=edit` request of a collection says about the credentials: 401 → an
 * AuthError that does not say which part is wrong; 403 → the credentials are valid but the
 * user's role may not edit posts (a subscriber): an AccessError naming what was refused;
 * anything else says nothing about them (undefined). The pull's access check reads the first
 * collection's total with the same request and words its refusals here too.
 */
export function credentialRefusal(
  error: unknown,
  names?: CredentialNames,
): AuthError | AccessError | undefined {
  if (!(error instanceof HttpError)) return undefined;
  const { user, password } = credentialVars(names);
  if (error.status === 403) {
    return new AccessError(
      `${error.method} ${error.url}`,
      `the site accepted the credentials in ${user}/${password}, but that user may not edit posts (${error.method} ${error.url} answered 403${error.serverCode === undefined ? '' : ` ${error.serverCode}`}); use another user whose role may edit posts, pages and media (an editor or administrator)`,
      { cause: error },
    );
  }
  if (error.status === 401) {
    return new AuthError(
      `the site refused the credentials in ${user}/${password} (${error.method} ${error.url} answered ${error.status}); create a new application password and try again`,
    );
  }
  return undefined;
}

function credentialVars(names: CredentialNames | undefined): { user: string; password: string } {
  return {
    user: names?.user ?? DEFAULT_USER_VAR,
    password: names?.password ?? DEFAULT_PASSWORD_VAR,
  };
}
