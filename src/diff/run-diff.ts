/**
 * `diff`: what changed between the cache and a snapshot (`backup --to` file), since a time
 * (from the kept history), or between the cache and the live site (read-only). Opens
 * everything read-only and refuses, before comparing, what diff-checks.ts refuses.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CmsClient, clientOptionsFor } from '../client/index.js';
import { checkSettingsTransport, requireSite, type Settings } from '../config/settings.js';
import { ConfigError, InputError, SiteError, UsageError } from '../errors.js';
import { openStore, openStoreToRead, type Store } from '../store/index.js';
import { historyPairs, snapshotPairs } from './cache-sides.js';
import { requireBackupCache, requireHistorySince, requireSameSite, siteOf } from './diff-checks.js';
import { planDiff, type ChangeKind, type ItemChange } from './diff-plan.js';
import type { ItemPair } from './item-state.js';
import { livePairs } from './live-side.js';
import { parseTimeArg } from './time-arg.js';

export interface DiffOptions {
  /** Compare with this snapshot (a `backup --to` file): it is the older side. */
  readonly snapshot?: string | undefined;
  /** Compare with the state at this TIME (ISO 8601 with a zone, or `24h`, `7d` back from now). */
  readonly since?: string | undefined;
  /** Compare with the live site (credentials needed; sends only reads). */
  readonly live?: boolean | undefined;
  /** The clock durations count back from. @default () => new Date() */
  readonly now?: () => Date;
}

export interface DiffReport {
  readonly against: 'snapshot' | 'since' | 'live';
  /** The snapshot file, the time (ISO 8601 UTC) or the site URL compared with. */
  readonly with: string;
  readonly languages: Readonly<Record<string, readonly ItemChange[]>>;
  readonly counts: Readonly<Record<ChangeKind, number>>;
  /** Changes over all languages: 0 means no difference. */
  readonly total: number;
}

export async function diff(settings: Settings, options: DiffOptions): Promise<DiffReport> {
  const modes = [
    options.snapshot !== undefined,
    options.since !== undefined,
    options.live === true,
  ];
  if (modes.filter(Boolean).length !== 1) {
    throw new UsageError('diff: give exactly one of --snapshot FILE, --since TIME or --live');
  }
  const now = (options.now ?? (() => new Date()))();
  const since =
    options.since === undefined ? undefined : parseTimeArg(options.since, now, '--since');
  if (options.live) requireLiveSettings(settings);
  const cache = openStore(settings.cache, { readonly: true });
  try {
    const languages = languagesOf(settings, cache);
    for (const lang of languages) requireBackupCache(cache, lang);
    if (options.snapshot !== undefined) {
      const file = resolve(options.snapshot);
      return await withSnapshot(file, (snapshot) =>
        report('snapshot', file, languages, (lang) => {
          requireBackupCache(snapshot, lang, 'snapshot');
          requireSameSite(cache, snapshot, lang);
          return snapshotPairs(snapshot, cache, lang);
        }),
      );
    }
    if (since !== undefined) {
      for (const lang of languages) requireHistorySince(cache, lang, since);
      const at = since.toISOString();
      return await report('since', at, languages, (lang) => historyPairs(cache, lang, at));
    }
    const { site } = requireSite(settings);
    return await report('live', site, languages, (lang) =>
      liveLanguage(settings, site, cache, lang),
    );
  } finally {
    cache.close();
  }
}

function languagesOf(settings: Settings, cache: Store): string[] {
  const cached = cache.items.langs();
  const languages = settings.languages.length > 0 ? settings.languages : cached;
  if (languages.length === 0) {
    throw new InputError(
      cache.file,
      `the cache ${cache.file} holds no items: run cms-mirror pull --backup first`,
    );
  }
  for (const lang of languages) {
    if (!cached.includes(lang)) {
      throw new InputError(
        cache.file,
        `the cache ${cache.file} holds no items of language ${lang} (it has ${cached.join(', ') || 'none'})`,
      );
    }
  }
  return languages;
}

/** The snapshot, read-only; one made before a schema upgrade through an upgraded copy. */
async function withSnapshot<T>(file: string, fn: (snapshot: Store) => Promise<T>): Promise<T> {
  if (!existsSync(file)) throw new InputError(file, `--snapshot ${file}: no such file`);
  const snapshot = openStoreToRead(file);
  try {
    return await fn(snapshot.store);
  } finally {
    snapshot.close();
  }
}

function requireLiveSettings(settings: Settings): void {
  requireSite(settings);
  if (settings.credentials === undefined) {
    throw new ConfigError(
      `diff --live lists drafts, private items and the trash, which the site shows only to signed-in users: set ${settings.credentialNames.user} and ${settings.credentialNames.password}`,
      { field: 'credentials' },
    );
  }
  checkSettingsTransport(settings);
}

/** One language of the live site, after checking it is the site the cache mirrors. */
async function liveLanguage(
  settings: Settings,
  site: string,
  cache: Store,
  lang: string,
): Promise<ItemPair[]> {
  const client = new CmsClient(clientOptionsFor(settings, site, lang));
  try {
    const index = (await client.get<Record<string, unknown> | null>('')).data;
    const url = index?.['url'] ?? index?.['home'];
    const theirs = typeof url === 'string' ? url.replace(/\/+$/, '') : undefined;
    const ours = siteOf(cache, lang);
    if (theirs === undefined || theirs !== ours) {
      throw new SiteError(
        client.apiRoot,
        `${client.apiRoot} is ${theirs ?? 'a site without a url'} (${lang}), the cache ${cache.file} mirrors ${ours ?? 'an unknown site'}: diff --live compares a cache with its own site`,
      );
    }
    return await livePairs(client, cache, lang);
  } finally {
    await client.close();
  }
}

async function report(
  against: DiffReport['against'],
  compared: string,
  languages: readonly string[],
  pairsOf: (lang: string) => ItemPair[] | Promise<ItemPair[]>,
): Promise<DiffReport> {
  const byLanguage: Record<string, ItemChange[]> = {};
  const counts = emptyCounts();
  for (const lang of languages) {
    const changes = planDiff(await pairsOf(lang));
    byLanguage[lang] = changes;
    for (const change of changes) counts[change.kind] += 1;
  }
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  return { against, with: compared, languages: byLanguage, counts, total };
}

function emptyCounts(): Record<ChangeKind, number> {
  return {
    deleted: 0,
    'media-removed': 0,
    trashed: 0,
    unpublished: 0,
    updated: 0,
    created: 0,
    'media-added': 0,
  };
}
