import { collectionRoute } from '../collections.js';
import { interpretBatchResult } from '../push/batch-result.js';
import type { CreateRun } from './create-items.js';
import { relinkUpdates, unmatchedWarnings } from './relink.js';
import { writeOne } from './write-one.js';

/**
 * The second pass (see migrate-relink.ts): items whose links, rewritten again now that every
 * created item's target URL is known, come out different are updated — in batches of updates,
 * which may be repeated harmlessly. A refused update is a warning: the item exists, only a
 * link in it still has the path the first pass guessed.
 */
export async function relinkCreated(run: CreateRun): Promise<void> {
  const { session, report } = run;
  const unmatched = new Set<string>();
  const updates = relinkUpdates(run.created, run.context, unmatched);
  report.warnings.push(...unmatchedWarnings(unmatched));
  for (let start = 0; start < updates.length; start += run.maxItems) {
    const chunk = updates.slice(start, start + run.maxItems);
    const requests = chunk.map((update) => ({
      method: 'POST' as const,
      path: `/${collectionRoute(update.type)}/${update.targetId}`,
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
        outcomes.push(
          await writeOne(session, request.path.replace(/^\//, ''), request.body, refs[i]!, true),
        );
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
