import { collectionOf, collectionRoute } from '../collections.js';
import type { MigrateType, PlanStep, SourceItem } from './planner.js';
import { isOwnCopy } from './own-copy.js';
import type { SiteSession } from '../push/site-session.js';

/**
 * What the target already holds for the items a migration still has to create, read before
 * its first write: copies a killed run made (recognised by `isOwnCopy`, never by slug alone)
 * and a person's items with the same slug (conflicts). Reads only.
 *
 * Candidates come from three look-ups per type: the slugs of the items (one listing per 100),
 * the target's drafts and pending items when an item has no slug (drafts have none), and a
 * title search for each item whose slug a person's item holds (a copy made beside it has
 * another slug).
 */

type Json = Readonly<Record<string, unknown>>;

export type StepFinding =
  | { readonly kind: 'own'; readonly target: Json }
  | { readonly kind: 'conflict'; readonly targets: readonly Json[] }
  | { readonly kind: 'free' };

export interface ScanInput {
  readonly session: SiteSession;
  /** Steps of one type not in `id_map`, in plan order (parents first). */
  readonly steps: readonly PlanStep[];
  readonly type: MigrateType;
  readonly byId: ReadonlyMap<string, SourceItem>;
  /** Target ids already mapped to a source item: never a candidate. */
  readonly claimed: Set<number>;
  /** The target id a source parent resolves to (mapped, or found in this scan); page trees only. */
  readonly parentTarget: (sourceId: number) => number | undefined;
  /** Called as each step is classified, in plan order (a page's parent is settled first). */
  readonly onFinding: (step: PlanStep, finding: StepFinding) => void;
  readonly countRequest: () => void;
}

export async function scanTarget(input: ScanInput): Promise<void> {
  const { steps, type } = input;
  const bySlug = await targetsBySlug(input, [
    ...new Set(steps.map((step) => step.slug).filter((slug) => slug !== '')),
  ]);
  const drafts = steps.some((step) => step.slug === '') ? await targetDrafts(input) : [];
  for (const step of steps) {
    const source = input.byId.get(`${type}:${step.sourceId}`)!.json;
    const sameSlug = step.slug === '' ? [] : (bySlug.get(step.slug) ?? []);
    let own = claimOwn(input, source, step.slug === '' ? drafts : sameSlug);
    const taken = sameSlug.filter((target) => !isOwnCopy(type, source, target));
    const clashing = taken.filter((target) => clashes(input, step, target));
    if (own === undefined && clashing.length > 0) {
      own = claimOwn(input, source, await targetsByTitle(input, source));
    }
    if (own !== undefined) input.onFinding(step, { kind: 'own', target: own });
    else if (clashing.length > 0) input.onFinding(step, { kind: 'conflict', targets: clashing });
    else input.onFinding(step, { kind: 'free' });
  }
}

/** The first unclaimed candidate that is a copy of `source`; claimed so no other step takes it. */
function claimOwn(input: ScanInput, source: Json, candidates: readonly Json[]): Json | undefined {
  const found = candidates.find(
    (target) =>
      typeof target.id === 'number' &&
      !input.claimed.has(target.id) &&
      isOwnCopy(input.type, source, target),
  );
  if (found !== undefined) input.claimed.add(found.id as number);
  return found;
}

/**
 * A page's slug is unique among its siblings only: a person's page clashes when it sits
 * where the new page would (the same parent). A page whose parent is still to be created
 * clashes with nothing.
 */
function clashes(input: ScanInput, step: PlanStep, target: Json): boolean {
  if (!collectionOf(input.type).hierarchical) return true;
  const parent = step.parentSourceId === 0 ? 0 : input.parentTarget(step.parentSourceId);
  return parent !== undefined && (target.parent ?? 0) === parent;
}

async function targetsBySlug(
  input: ScanInput,
  slugs: readonly string[],
): Promise<Map<string, Json[]>> {
  const out = new Map<string, Json[]>();
  const perPage = input.session.index.perPageMax(collectionRoute(input.type));
  for (let start = 0; start < slugs.length; start += perPage) {
    const chunk = slugs.slice(start, start + perPage);
    for await (const page of input.session.client.paginate<Json>(collectionRoute(input.type), {
      slug: chunk,
      per_page: perPage,
      context: 'edit',
      status: collectionOf(input.type).statuses.edit,
    })) {
      input.countRequest();
      for (const item of page.items) {
        if (typeof item.slug !== 'string') continue;
        // The target may answer the percent-encoded or the decoded form of a slug.
        for (const slug of chunk) {
          if (slug === item.slug || safeDecode(slug) === safeDecode(item.slug)) {
            const list = out.get(slug) ?? [];
            list.push(item);
            out.set(slug, list);
          }
        }
      }
    }
  }
  return out;
}

/** The target's drafts and pending items of the type: where slugless copies can be. */
async function targetDrafts(input: ScanInput): Promise<Json[]> {
  const items: Json[] = [];
  const perPage = input.session.index.perPageMax(collectionRoute(input.type));
  for await (const page of input.session.client.paginate<Json>(collectionRoute(input.type), {
    per_page: perPage,
    context: 'edit',
    status: ['draft', 'pending'],
    orderby: 'id',
    order: 'asc',
  })) {
    input.countRequest();
    items.push(...page.items);
  }
  return items;
}

/** Items whose title contains the source's: a copy made beside a person's item. */
async function targetsByTitle(input: ScanInput, source: Json): Promise<Json[]> {
  const title = titleOf(source).trim();
  if (title === '') return [];
  const perPage = input.session.index.perPageMax(collectionRoute(input.type));
  const page = await input.session.client.listPage<Json>(collectionRoute(input.type), {
    search: title,
    search_columns: ['post_title'],
    per_page: perPage,
    context: 'edit',
    status: collectionOf(input.type).statuses.edit,
  });
  input.countRequest();
  return page.items;
}

function titleOf(json: Json): string {
  const title = json.title as { raw?: unknown; rendered?: unknown } | string | undefined;
  if (typeof title === 'string') return title;
  if (typeof title?.raw === 'string') return title.raw;
  return typeof title?.rendered === 'string' ? title.rendered : '';
}

function safeDecode(slug: string): string {
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}
