import type { CmsClient } from '../client/index.js';
import { type CmsResponse } from '../client/index.js';
import { collectionRoute } from '../collections.js';
import { CmsMirrorError, InputError } from '../errors.js';
import type { Store } from '../store/index.js';
import type { SiteSession } from '../push/site-session.js';
import type { CreateRun } from './create-items.js';
import type { PlanStep, SourceItem } from './planner.js';
import { mediaFields, mediaFileName, mediaUrlPairs, type RemapContext } from './remap.js';

/**
 * Items that are uploaded files (the collection's `file`), one by one (the upload route takes
 * no batch), each recorded right after its answer. A file that cannot be created is reported;
 * the items that may show it wait for the next run (see `holdBackContent` in migrate.ts).
 */
export async function createFiles(
  run: CreateRun,
  steps: readonly PlanStep[],
  sourceClient: () => CmsClient,
): Promise<void> {
  const { store, session, byId, context, report, keys } = run;
  for (const step of steps) {
    const item = byId.get(`${step.type}:${step.sourceId}`)!;
    try {
      const bytes = await fileBytes(store, item, sourceClient);
      const response = await uploadFile(session, item, bytes, context);
      report.requests += 1;
      const target = response.data;
      store.idMap.set(keys.sourceKey, item.type, item.id, keys.targetKey, target.id as number);
      context.ids[item.type].set(item.id, target.id as number);
      for (const [from, to] of mediaUrlPairs(item.json, target)) context.urls.set(from, to);
      report.created[item.type] += 1;
      run.onLine?.(`created ${item.type} ${item.id} → ${String(target.id)}`);
    } catch (error) {
      if (!(error instanceof CmsMirrorError)) throw error;
      report.failed.push({ type: item.type, sourceId: item.id, message: error.message });
    }
  }
}

async function fileBytes(
  store: Store,
  item: SourceItem,
  sourceClient: () => CmsClient,
): Promise<Buffer> {
  const url = typeof item.json.source_url === 'string' ? item.json.source_url : undefined;
  if (url === undefined)
    throw new InputError(`${item.type} ${item.id}`, `${item.type} ${item.id} has no source_url`);
  const file = store.media.getFile(url);
  const blob = file === undefined ? undefined : store.media.getBlob(file.sha256);
  if (blob !== undefined) return blob;
  // Not in the cache (not a backup pull): fetch it from the source site while it still answers.
  const download = await sourceClient().download(url, { allowedOrigins: [new URL(url).origin] });
  return download.data;
}

function uploadFile(
  session: SiteSession,
  item: SourceItem,
  bytes: Buffer,
  context: RemapContext,
): Promise<CmsResponse<Record<string, unknown>>> {
  const name = mediaFileName(item.json);
  const mime =
    typeof item.json.mime_type === 'string' ? item.json.mime_type : 'application/octet-stream';
  return session.client.request<Record<string, unknown>>('POST', collectionRoute(item.type), {
    query: mediaFields(item.json, context),
    rawBody: { data: bytes, contentType: mime },
    headers: { 'content-disposition': `attachment; filename="${name}"` },
    idempotent: false,
  });
}
