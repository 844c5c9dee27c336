/**
 * `restore`: puts content back on the site through its REST interface, from the cache's kept
 * history, a snapshot or a revision. Per language: read the site, plan (restore-plan.ts), then
 * create again what was deleted for good, read the site again and send the updates (a change
 * since the first read is a conflict), and move links to re-created items in other items.
 * `dryRun` stops after the plan: only reads are sent.
 */
import type { Settings } from '../config/settings.js';
import { requireSite } from '../config/settings.js';
import { InputError, UsageError } from '../errors.js';
import { BATCH_LIMIT } from '../push/batch-planner.js';
import { requirePushCredentials } from '../push/run-push.js';
import { openSiteSession, PUSH_NEEDS } from '../push/site-session.js';
import { collectionOf, type ItemType } from '../collections.js';
import { refTypeOf, restoredFields, valueOf } from './restore-fields.js';
import { canonicalJson, openStore, type Store } from '../store/index.js';
import { recreateItems } from './create-phase.js';
import { relinkCandidates, relinkOthers } from './relink-phase.js';
import { EMPTY_LINKS, withRecreated, type LinkMap } from './relink-text.js';
import { siteOf } from '../diff/diff-checks.js';
import { modeOf, wantedByLanguage, type RestoreChoice, type RestoreMode } from './restore-input.js';
import { keyOf, planRestore, type RestoreAction, type RestorePlan } from './restore-plan.js';
import type { LanguageReport, RestoreRun } from './restore-run.js';
import { readSiteItems } from './site-read.js';
import type { WantedSet } from './wanted.js';
import { writeChanges } from './write-phase.js';

export interface RestoreOptions extends RestoreChoice {
  /** Print what would be done; send only reads. */
  readonly dryRun?: boolean | undefined;
  /** Overwrite items changed on the site while restore runs. */
  readonly force?: boolean | undefined;
  readonly now?: () => Date;
  readonly onLine?: (line: string) => void;
  /** Called with each language's plan, before anything is written. */
  readonly onPlanned?: (lang: string, plan: RestorePlan) => void | Promise<void>;
}

export interface RestoreReport {
  readonly mode: RestoreMode;
  readonly dryRun: boolean;
  readonly languages: Readonly<Record<string, LanguageReport>>;
  /** Requests sent (reads included), write requests (a batch's sub-requests each), batch calls. */
  readonly counts: { requests: number; writes: number; batches: number };
  readonly conflicts: number;
  readonly failed: number;
}

export async function restore(settings: Settings, options: RestoreOptions): Promise<RestoreReport> {
  const mode = modeOf(options);
  const { site } = requireSite(settings);
  const credentials = requirePushCredentials(settings);
  const cache = openStore(settings.cache);
  const counts = { requests: 0, writes: 0, batches: 0 };
  const languages: Record<string, LanguageReport> = {};
  try {
    const langs = languagesOf(settings, cache, mode);
    const now = (options.now ?? (() => new Date()))();
    const wanted = wantedByLanguage(cache, langs, options, now);
    const runId = options.dryRun ? null : cache.runs.start('restore');
    for (const lang of langs) {
      const session = await openSiteSession({
        site,
        lang,
        credentials,
        http: settings.http,
        needs: PUSH_NEEDS,
      });
      try {
        const run: RestoreRun = {
          store: cache,
          session,
          lang,
          runId,
          force: options.force === true,
          maxItems: Math.min(BATCH_LIMIT, session.index.batchMaxItems()),
          mapped: new Map(
            cache.restoreMap.list(lang).map((row) => [keyOf(row.type, row.oldId), row.newId]),
          ),
          links: linksOf(cache, lang),
          report: { done: [], conflicts: [], failed: [], leftNew: [], notes: [], unchanged: 0 },
          counts,
          onLine: options.onLine,
        };
        requireCacheSite(cache, lang, session.index.url || session.index.home);
        languages[lang] = run.report;
        await restoreLanguage(run, wanted.get(lang)!, options);
      } finally {
        await session.client.close();
      }
    }
    const report = summary(mode, options.dryRun === true, languages, counts);
    if (runId !== null)
      cache.runs.finish(runId, report.conflicts + report.failed > 0 ? 'partial' : 'ok', {
        ...counts,
        conflicts: report.conflicts,
        failed: report.failed,
      });
    return report;
  } finally {
    cache.close();
  }
}

async function restoreLanguage(
  run: RestoreRun,
  wanted: WantedSet,
  options: RestoreOptions,
): Promise<void> {
  const first = await planFromSite(run, wanted, options);
  const firstRead = fingerprints(first.site);
  run.report.leftNew.push(...first.plan.leftNew);
  run.report.notes.push(...first.plan.notes);
  run.report.unchanged = first.plan.unchanged.length;
  await options.onPlanned?.(run.lang, first.plan);
  const skip = new Set(wanted.wanted.map((item) => keyOf(item.type, item.id)));
  if (options.dryRun) {
    for (const action of first.plan.actions) run.report.done.push(planned(action));
    for (const item of relinkCandidates(run, skip))
      run.report.done.push({
        kind: 'relink',
        type: item.type,
        id: item.id,
        title: item.title,
        fields: [],
      });
    return;
  }
  const recreates = first.plan.actions.filter((a) => a.kind === 'recreate');
  await recreateItems(run, recreates);
  // Read again right before writing: what changed since the first read is a conflict.
  const second = first.plan.actions.length === 0 ? first : await planFromSite(run, wanted, options);
  const writes = second.plan.actions.filter((a) => a.kind !== 'recreate');
  await writeChanges(run, writes, firstRead, fingerprints(second.site));
  for (const [key, id] of run.mapped) skip.add(`${key.split('/')[0]!}/${id}`);
  await relinkOthers(run, relinkCandidates(run, skip));
}

/** Reads what the plan needs from the site, then plans. */
async function planFromSite(run: RestoreRun, wanted: WantedSet, options: RestoreOptions) {
  const ids = [...wanted.wanted, ...wanted.created].flatMap((item) => {
    const out = [{ type: item.type, id: item.id }];
    const mapped = run.mapped.get(keyOf(item.type, item.id));
    if (mapped !== undefined) out.push({ type: item.type, id: mapped });
    return out;
  });
  for (const item of wanted.wanted) {
    for (const [field, type] of refFields(item.type)) {
      const id = item.json[field];
      if (typeof id === 'number' && id > 0) ids.push({ type, id });
    }
  }
  const site = await readSiteItems(run.session, ids, () => (run.counts.requests += 1));
  const plan = planRestore({
    wanted: wanted.wanted,
    site,
    mapped: run.mapped,
    links: run.links,
    created: wanted.created,
    removeNew: options.removeNew === true,
  });
  return { site, plan };
}

function refFields(type: ItemType): [string, ItemType][] {
  const out: [string, ItemType][] = [];
  for (const field of ['parent', 'featured_media']) {
    const refType = refTypeOf(type, field);
    if (refType !== undefined) out.push([field, refType]);
  }
  return out;
}

function planned(action: RestoreAction): LanguageReport['done'][number] {
  const id = action.kind === 'recreate' ? action.oldId : action.oldId;
  const newId = action.kind !== 'recreate' && action.id !== action.oldId ? action.id : undefined;
  const fields = action.kind === 'trash' ? [] : Object.keys(action.body).sort();
  return {
    kind: action.kind,
    type: action.type,
    id,
    ...(newId ? { newId } : {}),
    title: action.title,
    fields,
  };
}

/**
 * What tells a change on the site apart, per item: its `modified_gmt` (to the second only) and
 * the values restore writes, so a change within the same second is seen too.
 */
function fingerprints(site: ReadonlyMap<string, Readonly<Record<string, unknown>>>) {
  const out = new Map<string, string>();
  for (const [key, json] of site) {
    const type = key.slice(0, key.indexOf('/')) as ItemType;
    const fields = [...restoredFields(type), 'status', 'modified_gmt'];
    out.set(key, canonicalJson(fields.map((field) => valueOf(json, field) ?? null)));
  }
  return out;
}

/** The site written to is the one the cache mirrors (its address is in the cache). */
function requireCacheSite(cache: Store, lang: string, url: string): void {
  const ours = siteOf(cache, lang);
  const theirs = url.replace(/\/+$/, '');
  if (ours !== undefined && ours !== theirs) {
    throw new InputError(
      cache.file,
      `the cache ${cache.file} mirrors ${ours} (${lang}), not ${theirs}: restore puts content back on the site it was pulled from`,
    );
  }
}

function linksOf(cache: Store, lang: string): LinkMap {
  let links = EMPTY_LINKS;
  for (const row of cache.restoreMap.list(lang)) {
    links = withRecreated(links, { ...row, file: collectionOf(row.type).file });
  }
  return links;
}

function languagesOf(settings: Settings, cache: Store, mode: RestoreMode): string[] {
  const cached = cache.items.langs();
  const langs = settings.languages.length > 0 ? settings.languages : cached;
  for (const lang of langs) {
    if (!cached.includes(lang))
      throw new InputError(
        cache.file,
        `the cache ${cache.file} holds no items of language ${lang} (it has ${cached.join(', ') || 'none'})`,
      );
  }
  if (langs.length === 0)
    throw new InputError(
      cache.file,
      `the cache ${cache.file} holds no items: run cms-mirror pull --backup first`,
    );
  if ((mode === 'item' || mode === 'revision') && langs.length !== 1)
    throw new UsageError(
      `restore --item: the cache holds ${langs.join(', ')}; give the item's language with --lang`,
    );
  return langs;
}

function summary(
  mode: RestoreMode,
  dryRun: boolean,
  languages: Record<string, LanguageReport>,
  counts: RestoreReport['counts'],
): RestoreReport {
  const all = Object.values(languages);
  return {
    mode,
    dryRun,
    languages,
    counts,
    conflicts: all.reduce((n, l) => n + l.conflicts.length, 0),
    failed: all.reduce((n, l) => n + l.failed.length, 0),
  };
}
