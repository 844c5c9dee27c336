import { expect } from 'vitest';
import { credentialEnv, unpacedPipeline } from './cli-args.js';
import { callApi, type Json, type ReferenceSite } from './reference.js';
import { runCliCaptured, type CliResult } from './run-cli.js';
import type { TempCache } from './temp-cache.js';

/**
 * Restore tests' shared steps against the reference site: CLI runs with credentials, a
 * `--backup` pull, the site's own records as the oracle (what the site holds comes from its
 * control hooks, never from src/ rules), and the writes the site received (its request log).
 */

export interface SiteRecord {
  id: number;
  title: string;
  content: string;
  status: string;
  slug: string;
  parent: number;
  featuredMedia: number;
}

export const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

export function commonArgs(site: ReferenceSite, temp: TempCache): string[] {
  const pipeline = unpacedPipeline(temp.dir);
  return ['--pipeline', pipeline, '--site', site.url, '--lang', 'pl', '--cache', temp.file];
}

export function cli(site: ReferenceSite, args: string[]): Promise<CliResult> {
  return runCliCaptured(args, { env: credentialEnv(site) });
}

export async function pullBackup(site: ReferenceSite, temp: TempCache): Promise<void> {
  const pulled = await cli(site, ['pull', ...commonArgs(site, temp), '--backup', '--json']);
  expect(pulled.stderr).not.toMatch(/internal error/);
  expect(pulled.code, pulled.stderr).toBe(0);
}

/** The site's records of a collection, by id, in the fields restore puts back. */
export function records(
  site: ReferenceSite,
  type: 'posts' | 'pages',
  lang = 'pl',
): Map<number, SiteRecord> {
  return new Map(
    site.control.listItems(lang, type).map((item) => [
      item.id,
      {
        id: item.id,
        title: item.title,
        content: item.content,
        status: item.status,
        slug: item.slug,
        parent: item.parent,
        featuredMedia: item.featuredMedia,
      },
    ]),
  );
}

/** Published posts without a password, by id. */
export function publishedPosts(site: ReferenceSite): number[] {
  return site.control
    .listItems('pl', 'posts')
    .filter((item) => item.status === 'publish' && item.password === '')
    .map((item) => item.id);
}

/** Write requests (anything but GET and HEAD) the site served since the log was cleared. */
export function writesLogged(site: ReferenceSite): string[] {
  return site.requests
    .filter((entry) => entry.method !== 'GET' && entry.method !== 'HEAD')
    .map((entry) => `${entry.method} ${entry.path}`);
}

/** An item as the site answers it in edit context. */
export async function itemJson(site: ReferenceSite, type: string, id: number): Promise<Json> {
  const response = await callApi(site, 'pl', `/cms/v2/${type}/${id}`, {
    auth: true,
    query: { context: 'edit' },
  });
  expect(response.status).toBe(200);
  return response.body;
}

/** An item's `link` as the site answers it. */
export async function linkOf(site: ReferenceSite, type: string, id: number): Promise<string> {
  return ((await itemJson(site, type, id)) as { link: string }).link;
}

export async function deleteForGood(site: ReferenceSite, type: string, id: number): Promise<void> {
  const response = await callApi(site, 'pl', `/cms/v2/${type}/${id}`, {
    method: 'DELETE',
    auth: true,
    query: { force: true },
  });
  expect(response.status).toBe(200);
}

export async function trash(site: ReferenceSite, type: string, id: number): Promise<void> {
  const response = await callApi(site, 'pl', `/cms/v2/${type}/${id}`, {
    method: 'DELETE',
    auth: true,
  });
  expect(response.status).toBe(200);
}
