import { HttpError } from '../errors.js';
import { mapUrl, type RemapContext } from './remap.js';
import type { SourceSeo } from './source.js';
import type { SiteSession } from '../push/site-session.js';

/**
 * After a migration: the source's `seo/v1` site representation and social profiles copied
 * to the target (logo ids and URLs remapped), then the indexing routes run in order, each
 * repeated while it hands back a `next_url`. Every result is reported, none is fatal: the
 * content is already migrated.
 */

export interface SeoReport {
  siteRepresentation: string;
  socialProfiles: string;
  indexing: { route: string; calls: number; objects: number; result: string }[];
  requests: number;
}

export const INDEXING_ROUTES = [
  'indexing/prepare',
  'indexing/posts',
  'indexing/terms',
  'indexing/post-type-archives',
  'indexing/general',
  'indexing/indexables-complete',
  'indexing/complete',
] as const;

/** An indexing route handing back `next_url` for ever would be a bug on the site: stop there. */
const MAX_CALLS_PER_ROUTE = 10_000;

const REPRESENTATION_FIELDS = [
  'company_or_person',
  'company_name',
  'company_logo',
  'company_logo_id',
  'person_logo',
  'person_logo_id',
  'description',
] as const;

export async function copySeoSettings(
  session: SiteSession,
  seo: SourceSeo,
  context: RemapContext,
  warnings: string[],
): Promise<SeoReport> {
  const report: SeoReport = {
    siteRepresentation: 'not in the source cache',
    socialProfiles: 'not in the source cache',
    indexing: [],
    requests: 0,
  };
  if (!session.index.namespaces.includes('seo/v1')) {
    report.siteRepresentation = report.socialProfiles = 'skipped: the target has no seo/v1';
    return report;
  }
  const post = async (
    route: string,
    body: Record<string, unknown>,
  ): Promise<{ ok: boolean; data: unknown; text: string }> => {
    report.requests += 1;
    try {
      // Setting the configuration to given values, and an indexing step the site tracks
      // itself, are harmless to repeat: a POST whose answer was cut is retried like a GET.
      const response = await session.client.request<unknown>('POST', `seo/v1/${route}`, {
        body,
        idempotent: true,
      });
      return { ok: true, data: response.data, text: `ok (${response.status})` };
    } catch (error) {
      if (error instanceof HttpError)
        return { ok: false, data: undefined, text: `failed: ${error.message}` };
      throw error;
    }
  };
  if (seo.siteRepresentation !== undefined) {
    const body = representationBody(seo.siteRepresentation, context);
    report.siteRepresentation = (await post('configuration/site_representation', body)).text;
  }
  if (seo.socialProfiles !== undefined) {
    const body: Record<string, unknown> = {};
    for (const name of ['facebook_site', 'twitter_site', 'other_social_urls'] as const) {
      if (seo.socialProfiles[name] !== undefined) body[name] = seo.socialProfiles[name];
    }
    report.socialProfiles = (await post('configuration/social_profiles', body)).text;
  }
  for (const route of INDEXING_ROUTES) {
    let calls = 0;
    let objects = 0;
    let result: string;
    for (;;) {
      const answer = await post(route, {});
      calls += 1;
      result = answer.text;
      const data = answer.data as { objects?: unknown; next_url?: unknown } | undefined;
      if (Array.isArray(data?.objects)) objects += data.objects.length;
      if (!answer.ok || !data?.next_url || calls >= MAX_CALLS_PER_ROUTE) break;
    }
    if (result.startsWith('failed')) warnings.push(`seo/v1/${route}: ${result}`);
    report.indexing.push({ route, calls, objects, result });
  }
  return report;
}

function representationBody(
  source: Record<string, unknown>,
  context: RemapContext,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of REPRESENTATION_FIELDS) {
    const value = source[name];
    if (value === undefined || value === null) continue;
    if ((name === 'company_logo_id' || name === 'person_logo_id') && typeof value === 'number') {
      // A logo that was not migrated cannot be pointed at: leave it out rather than point at a wrong item.
      const target = context.ids.media.get(value);
      if (target !== undefined) body[name] = target;
      continue;
    }
    if ((name === 'company_logo' || name === 'person_logo') && typeof value === 'string') {
      body[name] = value === '' ? '' : mapUrl(value, context);
      continue;
    }
    body[name] = value;
  }
  return body;
}
