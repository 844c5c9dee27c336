import { CmsClient, verifyCredentials } from '../client/index.js';
import {
  collectionOf,
  collectionRoute,
  isContentType,
  isItemType,
  MIGRATE_ORDER,
} from '../collections.js';
import { ConfigError } from '../errors.js';
import { openStore, type Store } from '../store/index.js';
import { BATCH_LIMIT } from '../push/batch-planner.js';
import { openSiteSession, type SiteSession } from '../push/site-session.js';
import { createFiles } from './file-upload.js';
import { createInBatches, createTree, type CreateRun } from './create-items.js';
import {
  formatPlan,
  planMigration,
  type MigrateType,
  type MigrationPlan,
  type PlanStep,
  type SourceItem,
} from './planner.js';
import {
  recoverTarget,
  type MigrateContext,
  type RecoveryInput,
  type RecoveryResult,
} from './recovery.js';
import { relinkCreated } from './relink-run.js';
import { emptyReport, type MigrateOptions, type MigrateReport } from './report.js';
import { copySeoSettings } from './seo.js';
import { sourceSiteOf, type SourceSite } from './source.js';
import { droppedTermWarnings } from './terms.js';

export type { MigrateOptions, MigrateReport } from './report.js';

/**
 * `migrate`: a language of a source cache re-created on another site. Media first, pages
 * parents-first, then posts; ids and URLs remapped. Idempotent and resumable: every create is
 * recorded in `id_map` (in the source cache) right after its answer, and before creating, the
 * target is read for copies a killed run made without recording them (recognised by their
 * content, see migrate-own-copy.ts) and for a person's items with the same slug (conflicts,
 * see migrate-conflicts.ts), all before the first write.
 */

export async function migrate(options: MigrateOptions): Promise<MigrateReport> {
  const store = openStore(options.fromCache);
  try {
    return await migrateWith(store, options);
  } finally {
    store.close();
  }
}

/** The two ends of the run's `id_map` rows: `{site url}#{lang}`. */
interface MigrateKeys {
  readonly sourceKey: string;
  readonly targetKey: string;
}

/** What the source cache says, before the target is asked anything. */
interface SourcePlan {
  readonly source: SourceSite;
  readonly items: readonly SourceItem[];
  readonly keys: MigrateKeys;
  readonly plan: MigrationPlan;
  readonly report: MigrateReport;
}

async function migrateWith(store: Store, options: MigrateOptions): Promise<MigrateReport> {
  const planned = planFromSource(store, options);
  const session = await openTarget(options);
  let sourceClient: CmsClient | undefined;
  const sourceClientOf = () =>
    (sourceClient ??= new CmsClient({ site: planned.source.url, lang: options.fromLang }));
  try {
    return await migrateTo(store, session, planned, options, sourceClientOf);
  } finally {
    await session.client.close();
    await sourceClient?.close();
  }
}

/** The plan from the source cache alone: items in migration order, what is mapped already. */
function planFromSource(store: Store, options: MigrateOptions): SourcePlan {
  const source = sourceSiteOf(store, options.fromLang);
  const items = loadSourceItems(store, options.fromLang);
  const report = emptyReport();
  const keys: MigrateKeys = {
    sourceKey: `${source.url}#${options.fromLang}`,
    targetKey: `${options.to.replace(/\/+$/, '')}#${options.toLang}`,
  };
  const mapped = (type: MigrateType, id: number) =>
    store.idMap.get(keys.sourceKey, type, id, keys.targetKey);
  const plan = planMigration(items, mapped);
  report.warnings.push(...plan.warnings);
  report.warnings.push(...droppedTermWarnings(items, options.keepTerms ?? false));
  return { source, items, keys, plan, report };
}

/** Reads the target, then (unless a dry run or a conflict stops it) creates, re-links, copies SEO. */
async function migrateTo(
  store: Store,
  session: SiteSession,
  { source, items, keys, plan, report }: SourcePlan,
  options: MigrateOptions,
  sourceClient: () => CmsClient,
): Promise<MigrateReport> {
  const byId = new Map(items.map((item) => [`${item.type}:${item.id}`, item]));
  const context = remapContext(store, keys, source, session, options);
  report.skipped = plan.steps.filter((step) => step.action === 'skip').length;
  const found = await readTarget(
    {
      ...{ store, session, plan, byId, context, keys },
      policy: options.onConflict ?? 'stop',
      dryRun: options.dryRun ?? false,
    },
    report,
  );
  if (options.dryRun || report.stopped) return report;
  const pending = (type: MigrateType) =>
    plan.steps.filter(
      (step) =>
        step.type === type &&
        !context.ids[type].has(step.sourceId) &&
        !found.skipped.has(`${type}:${step.sourceId}`),
    );
  const run: CreateRun = {
    ...{ store, session, byId, context, keys, report },
    maxItems: Math.min(BATCH_LIMIT, session.index.batchMaxItems()),
    onLine: options.onLine,
    created: [...found.own],
  };
  for (const type of MIGRATE_ORDER) {
    if (collectionOf(type).file) await createFiles(run, pending(type), sourceClient);
  }
  if (holdBackContent(report, MIGRATE_ORDER.filter(isContentType).flatMap(pending))) return report;
  await createContent(run, plan, pending);
  await relinkCreated(run);
  report.seo = await copySeoSettings(session, source.seo, context, report.warnings);
  report.requests += report.seo.requests;
  return report;
}

/**
 * An item created now without the files it features or shows would keep that hole for good
 * (a re-run skips what is mapped): when a file failed, every text item waits for the next run.
 */
function holdBackContent(report: MigrateReport, steps: readonly PlanStep[]): boolean {
  if (!report.failed.some((failure) => collectionOf(failure.type).file)) return false;
  for (const step of steps) {
    report.failed.push({
      type: step.type,
      sourceId: step.sourceId,
      message: 'waits for media that could not be created; the next run creates both',
    });
  }
  return true;
}

/** Text items in migration order; a page tree level by level (parents before children). */
async function createContent(
  run: CreateRun,
  plan: MigrationPlan,
  pending: (type: MigrateType) => PlanStep[],
): Promise<void> {
  for (const type of MIGRATE_ORDER) {
    if (!isContentType(type)) continue;
    if (collectionOf(type).hierarchical) await createTree(run, plan, type, pending(type));
    else await createInBatches(run, type, pending(type));
  }
}

/** What the target holds (see migrate-recovery.ts), in the report and the plan text. */
async function readTarget(input: RecoveryInput, report: MigrateReport): Promise<RecoveryResult> {
  const found = await recoverTarget(input);
  report.recovered = found.recovered;
  report.adopted = found.adopted;
  report.conflicts = found.conflicts;
  report.requests += found.requests;
  report.planText = formatPlan(
    { ...input.plan, warnings: report.warnings },
    { recovered: input.context.ids, conflicts: found.conflicts },
  );
  report.stopped = input.policy === 'stop' && found.conflicts.length > 0;
  return found;
}

/**
 * The target's session, after its credentials were checked with one request that needs them
 * (a wrong password is answered as anonymous elsewhere, and a migration would then fail on
 * its first write with an unrelated message). Also for a dry run: it reads the target.
 */
async function openTarget(options: MigrateOptions): Promise<SiteSession> {
  const names = options.credentialNames ?? { user: 'CMS_USER', password: 'CMS_APP_PASSWORD' };
  if (options.credentials === undefined) {
    throw new ConfigError(
      `migrate needs credentials for the target (also for --dry-run, which reads it): set ${names.user} and ${names.password}`,
    );
  }
  const session = await openSiteSession({
    site: options.to,
    lang: options.toLang,
    credentials: options.credentials,
    ...(options.http ? { http: options.http } : {}),
    needs: MIGRATE_ORDER.map((type) => ({
      route: collectionRoute(type),
      methods: ['GET', 'POST'] as const,
    })),
  });
  try {
    await verifyCredentials(session.client, { names });
    return session;
  } catch (error) {
    await session.client.close();
    throw error;
  }
}

function loadSourceItems(store: Store, lang: string): SourceItem[] {
  const items: SourceItem[] = [];
  for (const type of MIGRATE_ORDER) {
    for (const row of store.items.iterate(lang, type)) {
      items.push({ type, id: row.id, json: JSON.parse(row.json) as Record<string, unknown> });
    }
  }
  return items;
}

function remapContext(
  store: Store,
  { sourceKey, targetKey }: MigrateKeys,
  source: { url: string; home: string },
  session: SiteSession,
  options: MigrateOptions,
): MigrateContext {
  const ids = Object.fromEntries(MIGRATE_ORDER.map((type) => [type, new Map()])) as Record<
    MigrateType,
    Map<number, number>
  >;
  for (const mapping of store.idMap.list(sourceKey, targetKey)) {
    // `adopted-…` mappings are a person's items taken over: not ids to remap to.
    if (isItemType(mapping.type)) ids[mapping.type].set(mapping.sourceId, mapping.targetId);
  }
  return {
    ids,
    authors: options.authors ?? new Map(),
    keepTerms: options.keepTerms ?? false,
    urls: new Map(),
    sourceHome: source.home,
    targetHome: session.index.home || `${session.client.options.site}/${session.lang}/`,
    sourceUrl: source.url,
    targetUrl: session.index.url || session.client.options.site,
  };
}
