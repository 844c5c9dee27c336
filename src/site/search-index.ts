/**
 * Builds one search bundle with Pagefind's service (`NewIndex` → `AddRecord` each document →
 * `GetFiles`, `pagefind-service.ts`). Records are made from the model rather than from
 * rendered pages, so indexing can run in Pagefind's own process while the templates render.
 */
import { stageBundle, type BundleStage, type StagedBundle } from './bundle-staging.js';
import { htmlToText } from './html-text.js';
import type { PagefindService, ServiceAnswer, ServiceRequest } from './pagefind-service.js';
import type { SearchShard } from './search-plan.js';

/** Files of a bundle nobody loads: the alternative UIs and the highlighter. */
const UNUSED_BUNDLE_FILE = /^pagefind-(?:component-ui|modular-ui|highlight)\./;

/** One bundle to build, as a search worker receives it. */
export interface ShardRequest {
  shard: SearchShard;
  lang: string;
  /** Stage the files there and answer with what staging did, not with the files. */
  stage?: BundleStage;
}

/** A search worker's answer: the bundle's files, or what staging them did (`stage` given). */
export async function answerShardRequest(
  request: ShardRequest,
  pagefind: PagefindService,
): Promise<Map<string, Uint8Array> | StagedBundle> {
  const files = await buildSearchShard(request.shard, request.lang, pagefind);
  return request.stage === undefined ? files : stageBundle(files, request.stage);
}

/**
 * The files of one bundle, by path relative to the language root (`pagefind/s0/pagefind.js`).
 * The index's creation, its records, the request for its files and the index's deletion go to
 * Pagefind in one write, before this returns (`pagefind-service.ts`: Pagefind handles them in
 * that order, and the index's id is known before its answer): Pagefind indexes while the
 * calling thread goes on with the build.
 *
 * @throws {SearchIndexError} `E_SEARCH_INDEX` when Pagefind reports errors.
 */
export async function buildSearchShard(
  shard: SearchShard,
  lang: string,
  pagefind: PagefindService,
): Promise<Map<string, Uint8Array>> {
  const indexId = pagefind.nextIndexId;
  const records: ServiceRequest[] = shard.docs.map((doc) => ({
    type: 'AddRecord',
    index_id: indexId,
    url: doc.url,
    content: `${doc.title}. ${htmlToText(doc.html)}`,
    language: lang,
    meta: { title: doc.title },
  }));
  const answers = pagefind.send([
    { type: 'NewIndex', config: { force_language: lang } },
    ...records,
    { type: 'GetFiles', index_id: indexId },
    { type: 'DeleteIndex', index_id: indexId },
  ]);
  const settled = await Promise.allSettled(answers);
  const failed = settled.find((answer) => answer.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  const got = settled[1 + records.length] as PromiseFulfilledResult<ServiceAnswer>;
  const files = new Map<string, Uint8Array>();
  for (const file of (got.value as BundleFilesAnswer).files) {
    const name = file.path.replace(/\\/g, '/');
    if (UNUSED_BUNDLE_FILE.test(name)) continue;
    files.set(`${shard.dir}/${name}`, Buffer.from(file.content, 'base64'));
  }
  return files;
}

/** Pagefind's answer to `GetFiles`: each file's path and its bytes in base64. */
interface BundleFilesAnswer extends ServiceAnswer {
  files: { path: string; content: string }[];
}
