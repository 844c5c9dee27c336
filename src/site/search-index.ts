/**
 * Builds one search bundle with Pagefind's Node API (`createIndex` → `addCustomRecord` →
 * `getFiles`). Records are made from the model rather than from rendered pages, so indexing
 * can run in Pagefind's own process while the templates render.
 */
import { SearchIndexError } from '../errors.js';
import { stageBundle, type BundleStage, type StagedBundle } from './bundle-staging.js';
import { htmlToText } from './html-text.js';
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
): Promise<Map<string, Uint8Array> | StagedBundle> {
  const files = await buildSearchShard(request.shard, request.lang);
  return request.stage === undefined ? files : stageBundle(files, request.stage);
}

/** Pagefind records this many at a time: enough to keep its process busy, bounded memory. */
const RECORDS_IN_FLIGHT = 256;

/**
 * The files of one bundle, by path relative to the language root (`pagefind/s0/pagefind.js`).
 *
 * @throws {SearchIndexError} `E_SEARCH_INDEX` when Pagefind reports errors.
 */
export async function buildSearchShard(
  shard: SearchShard,
  lang: string,
): Promise<Map<string, Uint8Array>> {
  // Loaded with the first shard: a run that builds no search bundle never loads Pagefind.
  const pagefind = await import('pagefind');
  const created = await pagefind.createIndex({ forceLanguage: lang });
  const index = created.index;
  if (!index) throw searchError(created.errors);
  try {
    for (let start = 0; start < shard.docs.length; start += RECORDS_IN_FLIGHT) {
      const answers = await Promise.all(
        shard.docs.slice(start, start + RECORDS_IN_FLIGHT).map((doc) =>
          index.addCustomRecord({
            url: doc.url,
            content: `${doc.title}. ${htmlToText(doc.html)}`,
            language: lang,
            meta: { title: doc.title },
          }),
        ),
      );
      const errors = answers.flatMap((answer) => answer.errors);
      if (errors.length > 0) throw searchError(errors);
    }
    const result = await index.getFiles();
    if (result.errors.length > 0) throw searchError(result.errors);
    const files = new Map<string, Uint8Array>();
    for (const file of result.files) {
      const name = file.path.replace(/\\/g, '/');
      if (UNUSED_BUNDLE_FILE.test(name)) continue;
      files.set(`${shard.dir}/${name}`, file.content);
    }
    return files;
  } finally {
    await index.deleteIndex();
  }
}

function searchError(errors: readonly string[]): SearchIndexError {
  return new SearchIndexError(
    `The search index could not be built: ${errors.join('; ') || 'no index'}`,
  );
}
