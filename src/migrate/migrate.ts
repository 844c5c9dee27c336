import { CmsClient, verifyCredentials, type CmsResponse } from '../client/index.js';
import type { Credentials } from '../config/settings.js';
import type { HttpSettings } from '../config/pipeline-schema.js';
import { CmsMirrorError, ConfigError, HttpError, InputError } from '../errors.js';
import { openStore, type Store } from '../store/index.js';
import { BATCH_LIMIT } from '../push/batch-planner.js';
import { interpretBatchResult, type SubOutcome } from '../push/batch-result.js';
import {
  formatPlan,
  planMigration,
  type MigrateType,
  type MigrationPlan,
  type PlanStep,
  type SourceItem,
} from './planner.js';
import { mediaFields, mediaFileName, mediaUrlPairs, postBody, type RemapContext } from './remap.js';
import { relinkUpdates, unmatchedWarnings, type CreatedItem } from './relink.js';
import type { ConflictPolicy, MigrateConflict } from './conflicts.js';
import {
  recoverTarget,
  rememberUrls,
  type MigrateContext,
  type RecoveryInput,
  type RecoveryResult,
} from './recovery.js';
import { copySeoSettings, type SeoReport } from './seo.js';
import { droppedTermWarnings } from './terms.js';
import { sourceSiteOf } from './source.js';
import { openSiteSession, type SiteSession } from '../push/site-session.js';

/**
 * `migrate`: a language of a source cache re-created on another site. Media first, pages
 * parents-first, then posts; ids and URLs remapped. Idempotent and resumable: every create is
 * recorded in `id_map` (in the source cache) right after its answer, and before creating, the
 * target is read for copies a killed run made without recording them (recognised by their
 * content, see migrate-own-copy.ts) and for a person's items with the same slug (conflicts,
 * see migrate-conflicts.ts), all before the first write.
 */

export interface MigrateOptions {
  /** The source cache (`id_map` rows are written into it). */
  readonly fromCache: string;
  readonly fromLang: string;
  /** Base URL of the target site. */
  readonly to: string;
  readonly toLang: string;
  readonly credentials: Credentials | undefined;
  readonly http?: Partial<HttpSettings>;
  /** Read the target and print the plan (conflicts included), create nothing. @default false */
  readonly dryRun?: boolean;
  /** What to do with a person's item that has the slug of an item to create. @default 'stop' */
  readonly onConflict?: ConflictPolicy;
  /** Send category and tag ids as they are (the target shares the source's terms). @default false */
  readonly keepTerms?: boolean;
  /** Names of the credential variables, for messages. @default CMS_USER / CMS_APP_PASSWORD */
  readonly credentialNames?: { readonly user: string; readonly password: string };
  /** Source author id → target author id. @default none (the target's importing user) */
  readonly authors?: ReadonlyMap<number, number>;
  /** Progress lines (one per created batch or media). */
  readonly onLine?: (line: string) => void;
}

export interface MigrateReport {
  created: Record<MigrateType, number>;
  /** Already in `id_map`. */
  skipped: number;
  /**
   * Found on the target as this migration's own copies (a killed run created them but did
   * not record them, or the cache lost its id_map): recorded, not created again.
   */
  recovered: number;
  /** A person's items taken as the copies (`onConflict: 'adopt'`). */
  adopted: number;
  /** A person's items with the slug of an item to create, and what was done about each. */
  conflicts: MigrateConflict[];
  /** Conflicts and `onConflict: 'stop'`: nothing was written to the target. */
  stopped: boolean;
  /**
   * Items of this run updated by the second pass: their links to items created after them
   * pointed at a path the target did not give those items.
   */
  relinked: number;
  failed: { type: MigrateType; sourceId: number; message: string }[];
  warnings: string[];
  /** The dry-run plan as text (also filled on a real run). */
  planText: string;
  /** Requests made to the target (batch calls count once). */
  requests: number;
  batches: number;
  seo: SeoReport | undefined;
}

export async function migrate(options: MigrateOptions): Promise<MigrateReport> {
  const store = openStore(options.fromCache);
  try {
    return await migrateWith(store, options);
  } finally {
    store.close();
  }
}

async function migrateWith(store: Store, options: MigrateOptions): Promise<MigrateReport> {
  const source = sourceSiteOf(store, options.fromLang);
  const items = loadSourceItems(store, options.fromLang);
  const report = emptyReport();
  const sourceKey = `${source.url}#${options.fromLang}`;
  const targetKey = `${options.to.replace(/\/+$/, '')}#${options.toLang}`;
  const mapped = (type: MigrateType, id: number) => store.idMap.get(sourceKey, type, id, targetKey);
  const plan = planMigration(items, mapped);
  report.warnings.push(...plan.warnings);
  report.warnings.push(...droppedTermWarnings(items, options.keepTerms ?? false));
  const session = await openTarget(options);
  let sourceClient: CmsClient | undefined;
  try {
    const byId = new Map(items.map((item) => [`${item.type}:${item.id}`, item]));
    const context = remapContext(store, sourceKey, targetKey, source, session, options);
    report.skipped = plan.steps.filter((step) => step.action === 'skip').length;
    const found = await readTarget(
      {
        ...{ store, session, plan, byId, context },
        policy: options.onConflict ?? 'stop',
        keys: { sourceKey, targetKey },
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
    await createMedia(
      store,
      session,
      pending('media'),
      { byId, context, keys: { sourceKey, targetKey }, report, options },
      () => (sourceClient ??= new CmsClient({ site: source.url, lang: options.fromLang })),
    );
    const run: CreateRun = {
      store,
      session,
      byId,
      context,
      keys: { sourceKey, targetKey },
      maxItems: Math.min(BATCH_LIMIT, session.index.batchMaxItems()),
      report,
      onLine: options.onLine,
      created: [...found.own],
    };
    // An item created now without the media it features or shows, or without its parent,
    // would keep that hole for good (a re-run skips what is mapped): it waits for the next run.
    if (report.failed.some((failure) => failure.type === 'media')) {
      for (const step of [...pending('pages'), ...pending('posts')]) {
        report.failed.push({
          type: step.type,
          sourceId: step.sourceId,
          message: 'waits for media that could not be created; the next run creates both',
        });
      }
      return report;
    }
    await createPages(run, plan, pending('pages'));
    await createInBatches(run, 'posts', pending('posts'));
    await relinkCreated(run);

    report.seo = await copySeoSettings(session, source.seo, context, report.warnings);
    report.requests += report.seo.requests;
    return report;
  } finally {
    await session.client.close();
    await sourceClient?.close();
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

function emptyReport(): MigrateReport {
  return {
    created: { media: 0, pages: 0, posts: 0 },
    skipped: 0,
    recovered: 0,
    adopted: 0,
    conflicts: [],
    stopped: false,
    relinked: 0,
    failed: [],
    warnings: [],
    planText: '',
    requests: 0,
    batches: 0,
    seo: undefined,
  };
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
    needs: [
      { route: 'cms/v2/media', methods: ['GET', 'POST'] },
      { route: 'cms/v2/pages', methods: ['GET', 'POST'] },
      { route: 'cms/v2/posts', methods: ['GET', 'POST'] },
    ],
  });
  try {
    await verifyCredentials(session.client, { names });
    return session;
  } catch (error) {
    await session.client.close();
    throw error;
  }
}

/** Media one by one (the upload route takes no batch), each recorded right after its answer. */
async function createMedia(
  store: Store,
  session: SiteSession,
  steps: readonly PlanStep[],
  run: {
    byId: ReadonlyMap<string, SourceItem>;
    context: MigrateContext;
    keys: { sourceKey: string; targetKey: string };
    report: MigrateReport;
    options: MigrateOptions;
  },
  sourceClient: () => CmsClient,
): Promise<void> {
  const { byId, context, report, options } = run;
  const { sourceKey, targetKey } = run.keys;
  for (const step of steps) {
    const item = byId.get(`media:${step.sourceId}`)!;
    try {
      const bytes = await mediaBytes(store, item, sourceClient);
      const response = await uploadMedia(session, item, bytes, context);
      report.requests += 1;
      const target = response.data;
      store.idMap.set(sourceKey, 'media', item.id, targetKey, target.id as number);
      context.ids.media.set(item.id, target.id as number);
      for (const [from, to] of mediaUrlPairs(item.json, target)) context.urls.set(from, to);
      report.created.media += 1;
      options.onLine?.(`created media ${item.id} → ${String(target.id)}`);
    } catch (error) {
      if (!(error instanceof CmsMirrorError)) throw error;
      report.failed.push({ type: 'media', sourceId: item.id, message: error.message });
    }
  }
}

/** Pages level by level: a level's parents were all created by the previous one. */
async function createPages(
  run: CreateRun,
  plan: MigrationPlan,
  pages: readonly PlanStep[],
): Promise<void> {
  const depth = depthsOf(plan.steps);
  const levels = [...new Set(pages.map((step) => depth.get(step.sourceId) ?? 0))].sort(
    (a, b) => a - b,
  );
  for (const level of levels) {
    const steps = pages.filter((step) => (depth.get(step.sourceId) ?? 0) === level);
    const orphans = steps.filter(
      (step) => step.parentSourceId !== 0 && !run.context.ids.pages.has(step.parentSourceId),
    );
    for (const step of orphans) {
      run.report.failed.push({
        type: 'pages',
        sourceId: step.sourceId,
        message: `waits for its parent page ${step.parentSourceId}, which could not be created`,
      });
    }
    await createInBatches(
      run,
      'pages',
      steps.filter((step) => !orphans.includes(step)),
    );
  }
}

function loadSourceItems(store: Store, lang: string): SourceItem[] {
  const items: SourceItem[] = [];
  for (const type of ['media', 'pages', 'posts'] as const) {
    for (const row of store.items.iterate(lang, type)) {
      items.push({ type, id: row.id, json: JSON.parse(row.json) as Record<string, unknown> });
    }
  }
  return items;
}

function remapContext(
  store: Store,
  sourceKey: string,
  targetKey: string,
  source: { url: string; home: string },
  session: SiteSession,
  options: MigrateOptions,
): MigrateContext {
  const ids: Record<MigrateType, Map<number, number>> = {
    media: new Map(),
    pages: new Map(),
    posts: new Map(),
  };
  for (const mapping of store.idMap.list(sourceKey, targetKey)) {
    if (mapping.type === 'media' || mapping.type === 'pages' || mapping.type === 'posts') {
      ids[mapping.type].set(mapping.sourceId, mapping.targetId);
    }
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

async function mediaBytes(
  store: Store,
  item: SourceItem,
  sourceClient: () => CmsClient,
): Promise<Buffer> {
  const url = typeof item.json.source_url === 'string' ? item.json.source_url : undefined;
  if (url === undefined)
    throw new InputError(`media ${item.id}`, `media ${item.id} has no source_url`);
  const file = store.media.getFile(url);
  const blob = file === undefined ? undefined : store.media.getBlob(file.sha256);
  if (blob !== undefined) return blob;
  // Not in the cache (not a backup pull): fetch it from the source site while it still answers.
  const download = await sourceClient().download(url, { allowedOrigins: [new URL(url).origin] });
  return download.data;
}

async function uploadMedia(
  session: SiteSession,
  item: SourceItem,
  bytes: Buffer,
  context: RemapContext,
): Promise<CmsResponse<Record<string, unknown>>> {
  const name = mediaFileName(item.json);
  const mime =
    typeof item.json.mime_type === 'string' ? item.json.mime_type : 'application/octet-stream';
  return session.client.request<Record<string, unknown>>('POST', 'cms/v2/media', {
    query: mediaFields(item.json, context),
    rawBody: { data: bytes, contentType: mime },
    headers: { 'content-disposition': `attachment; filename="${name}"` },
    idempotent: false,
  });
}

/** What creating pages and posts needs, and what it collects for the second pass. */
interface CreateRun {
  readonly store: Store;
  readonly session: SiteSession;
  readonly byId: ReadonlyMap<string, SourceItem>;
  readonly context: MigrateContext;
  readonly keys: { sourceKey: string; targetKey: string };
  readonly maxItems: number;
  readonly report: MigrateReport;
  readonly onLine: ((line: string) => void) | undefined;
  /** Items created by this run and the bodies they were created with. */
  readonly created: CreatedItem[];
}

async function createInBatches(
  run: CreateRun,
  type: 'pages' | 'posts',
  steps: readonly PlanStep[],
): Promise<void> {
  const { store, session, byId, context, keys, report } = run;
  const batchable = session.index.allowsBatch(`cms/v2/${type}`, 'POST');
  const size = batchable ? run.maxItems : 1;
  for (let start = 0; start < steps.length; start += size) {
    const chunkSteps = steps.slice(start, start + size);
    const bodies = chunkSteps.map((step) => {
      const result = postBody(
        type,
        byId.get(`${type}:${step.sourceId}`)!.json,
        step.parentSourceId,
        context,
      );
      for (const note of result.notes) report.warnings.push(`${type} ${step.sourceId}: ${note}`);
      return result.body;
    });
    const refs = chunkSteps.map((step) => String(step.sourceId));
    const requests = bodies.map((body) => ({
      method: 'POST' as const,
      path: `/cms/v2/${type}`,
      body,
    }));
    let outcomes;
    if (batchable) {
      // `normal`: one refused item must not hold back the 24 others; it is reported.
      const result = await session.client.batch(requests, 'normal', { idempotent: false });
      report.batches += 1;
      outcomes = interpretBatchResult({ lang: session.lang, requests, refs }, result);
    } else {
      outcomes = [await createOne(session, type, bodies[0]!, refs[0]!)];
    }
    report.requests += 1;
    store.transaction(() => {
      for (const outcome of outcomes) {
        if (!outcome.ok) continue;
        store.idMap.set(
          keys.sourceKey,
          type,
          Number(outcome.ref),
          keys.targetKey,
          outcome.item.id as number,
        );
      }
    });
    outcomes.forEach((outcome, i) => {
      const sourceId = Number(outcome.ref);
      if (!outcome.ok) {
        report.failed.push({ type, sourceId, message: `${outcome.code}: ${outcome.message}` });
        return;
      }
      const json = byId.get(`${type}:${sourceId}`)!.json;
      context.ids[type].set(sourceId, outcome.item.id as number);
      rememberUrls(context, type, json, outcome.item);
      run.created.push({
        type,
        sourceId,
        targetId: outcome.item.id as number,
        parentSourceId: chunkSteps[i]!.parentSourceId,
        json,
        sent: bodies[i]!,
      });
      report.created[type] += 1;
    });
    run.onLine?.(`created ${outcomes.filter((o) => o.ok).length}/${outcomes.length} ${type}`);
  }
}

/**
 * The second pass (see migrate-relink.ts): items whose links, rewritten again now that every
 * created item's target URL is known, come out different are updated — in batches of updates,
 * which may be repeated harmlessly. A refused update is a warning: the item exists, only a
 * link in it still has the path the first pass guessed.
 */
async function relinkCreated(run: CreateRun): Promise<void> {
  const { session, report } = run;
  const unmatched = new Set<string>();
  const updates = relinkUpdates(run.created, run.context, unmatched);
  report.warnings.push(...unmatchedWarnings(unmatched));
  for (let start = 0; start < updates.length; start += run.maxItems) {
    const chunk = updates.slice(start, start + run.maxItems);
    const requests = chunk.map((update) => ({
      method: 'POST' as const,
      path: `/cms/v2/${update.type}/${update.targetId}`,
      body: update.body,
    }));
    const refs = chunk.map((_, i) => String(start + i));
    let outcomes;
    if (requests.every((request) => session.index.allowsBatch(request.path.slice(1), 'POST'))) {
      const result = await session.client.batch(requests, 'normal', { idempotent: true });
      report.batches += 1;
      report.requests += 1;
      outcomes = interpretBatchResult({ lang: session.lang, requests, refs }, result);
    } else {
      outcomes = [];
      for (const [i, request] of requests.entries()) {
        outcomes.push(await updateOne(session, request.path, request.body, refs[i]!));
        report.requests += 1;
      }
    }
    for (const outcome of outcomes) {
      const update = updates[Number(outcome.ref)]!;
      if (outcome.ok) report.relinked += 1;
      else
        report.warnings.push(
          `${update.type} ${update.sourceId}: links to items created after it not updated (${outcome.code}: ${outcome.message})`,
        );
    }
  }
  if (report.relinked > 0)
    run.onLine?.(`updated links in ${report.relinked} item(s) created before their targets`);
}

function createOne(
  session: SiteSession,
  type: string,
  body: Record<string, unknown>,
  ref: string,
): Promise<SubOutcome> {
  return writeOne(session, `cms/v2/${type}`, body, ref, false);
}

function updateOne(
  session: SiteSession,
  path: string,
  body: Record<string, unknown>,
  ref: string,
): Promise<SubOutcome> {
  return writeOne(session, path.replace(/^\//, ''), body, ref, true);
}

/** One `POST` outside a batch, answered in the shape a batch sub-response is interpreted to. */
async function writeOne(
  session: SiteSession,
  route: string,
  body: Record<string, unknown>,
  ref: string,
  idempotent: boolean,
): Promise<SubOutcome> {
  try {
    const response = await session.client.request<Record<string, unknown>>('POST', route, {
      body,
      idempotent,
    });
    return { ref, ok: true as const, status: response.status, item: response.data };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return {
      ref,
      ok: false as const,
      status: error.status,
      code: error.serverCode ?? `http_${error.status}`,
      message: error.serverMessage ?? error.message,
      notRun: false,
    };
  }
}

/** Depth of each page in the plan (0 = top level), from the plan's parent links. */
function depthsOf(steps: readonly PlanStep[]): Map<number, number> {
  const parent = new Map(
    steps
      .filter((step) => step.type === 'pages')
      .map((step) => [step.sourceId, step.parentSourceId]),
  );
  const depth = new Map<number, number>();
  const of = (id: number, guard = 0): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    const up = parent.get(id) ?? 0;
    const value = up === 0 || guard > steps.length ? 0 : of(up, guard + 1) + 1;
    depth.set(id, value);
    return value;
  };
  for (const id of parent.keys()) of(id);
  return depth;
}
