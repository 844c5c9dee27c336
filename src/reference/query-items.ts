import { stripTags } from './render.js';
import type { SortedItems } from './sorted-items.js';
import type { LangStore, StoredItem, TypeIndex } from './store.js';
import { positionOfRank, prefixCounts } from './walk-counts.js';

/**
 * The list query engine: filters, ordering and paging of one collection. Orders by `date`,
 * `modified` and `id` walk presorted arrays and start range filters on the same key by
 * binary search; the total comes from counts kept per filter signature (walk-counts.ts), so a
 * crawl's next page out of 1,000,000 items does not walk them all again.
 */
export interface TermFilter {
  readonly terms: readonly number[];
  readonly includeChildren: boolean;
  readonly operator: 'AND' | 'OR';
}

export interface ListQuery {
  /** Statuses to include; undefined means every status but trash and auto-draft (`any`). */
  readonly statuses: ReadonlySet<string> | undefined;
  readonly search?: string | undefined;
  readonly searchColumns?: readonly string[] | undefined;
  readonly exactSearch?: boolean | undefined;
  /** Exclusive bounds in epoch seconds. */
  readonly after?: number | undefined;
  readonly before?: number | undefined;
  readonly modifiedAfter?: number | undefined;
  readonly modifiedBefore?: number | undefined;
  readonly author?: readonly number[] | undefined;
  readonly authorExclude?: readonly number[] | undefined;
  readonly include?: readonly number[] | undefined;
  readonly exclude?: readonly number[] | undefined;
  readonly slug?: readonly string[] | undefined;
  readonly parent?: readonly number[] | undefined;
  readonly parentExclude?: readonly number[] | undefined;
  readonly menuOrder?: number | undefined;
  readonly categories?: TermFilter | undefined;
  readonly categoriesExclude?: TermFilter | undefined;
  readonly tags?: TermFilter | undefined;
  readonly tagsExclude?: TermFilter | undefined;
  readonly taxRelation?: 'AND' | 'OR' | undefined;
  readonly sticky?: boolean | undefined;
  readonly stickyFirst?: boolean | undefined;
  readonly format?: readonly string[] | undefined;
  readonly mediaType?: readonly string[] | undefined;
  readonly mimeType?: readonly string[] | undefined;
  readonly orderby: string;
  readonly order: 'asc' | 'desc';
  readonly page: number;
  readonly perPage: number;
  readonly offset?: number | undefined;
}

export interface ListResult {
  readonly items: StoredItem[];
  readonly total: number;
  readonly totalPages: number;
}

type Predicate = (item: StoredItem) => boolean;

function expandTerms(store: LangStore, filter: TermFilter): Set<number> {
  const out = new Set(filter.terms);
  if (!filter.includeChildren) return out;
  let grew = true;
  while (grew) {
    grew = false;
    for (const term of store.terms) {
      if (term.parent !== 0 && out.has(term.parent) && !out.has(term.id)) {
        out.add(term.id);
        grew = true;
      }
    }
  }
  return out;
}

function termClause(store: LangStore, filter: TermFilter, field: 'categories' | 'tags'): Predicate {
  const terms = expandTerms(store, filter);
  if (filter.operator === 'AND' && !filter.includeChildren) {
    return (item) => filter.terms.every((term) => item[field].includes(term));
  }
  return (item) => item[field].some((term) => terms.has(term));
}

/** Plain text of an item's content, cached until the content changes (searches scan every item). */
const plainCache = new WeakMap<StoredItem, { content: string; text: string }>();
function plainContent(item: StoredItem): string {
  const cached = plainCache.get(item);
  if (cached && cached.content === item.content) return cached.text;
  const text = stripTags(item.content);
  plainCache.set(item, { content: item.content, text });
  return text;
}

/** Search terms as servers split them: words, `-word` excludes, or one exact phrase. */
function searchPredicate(query: ListQuery): Predicate | undefined {
  const raw = query.search?.trim();
  if (!raw) return undefined;
  const columns = query.searchColumns?.length
    ? query.searchColumns
    : ['post_title', 'post_content', 'post_excerpt'];
  const haystack = (item: StoredItem): string => {
    const parts: string[] = [];
    if (columns.includes('post_title')) parts.push(item.title);
    if (columns.includes('post_content')) parts.push(plainContent(item));
    if (columns.includes('post_excerpt')) parts.push(item.excerpt);
    return parts.join('\n').toLowerCase();
  };
  if (query.exactSearch) {
    const phrase = raw.toLowerCase();
    return (item) => haystack(item).includes(phrase);
  }
  const words = raw.toLowerCase().split(/\s+/).filter(Boolean);
  const wanted = words.filter((word) => !word.startsWith('-') || word.length === 1);
  const unwanted = words
    .filter((word) => word.startsWith('-') && word.length > 1)
    .map((w) => w.slice(1));
  return (item) => {
    const text = haystack(item);
    return (
      wanted.every((word) => text.includes(word)) && !unwanted.some((word) => text.includes(word))
    );
  };
}

/** Date and modified ranges, except the one the index already narrowed to. */
function datePredicates(query: ListQuery, rangeKey: 'date' | 'modified' | undefined): Predicate[] {
  const checks: Predicate[] = [];
  if (rangeKey !== 'date') {
    if (query.after !== undefined) {
      const after = query.after;
      checks.push((item) => item.dateGmt > after);
    }
    if (query.before !== undefined) {
      const before = query.before;
      checks.push((item) => item.dateGmt < before);
    }
  }
  if (rangeKey !== 'modified') {
    if (query.modifiedAfter !== undefined) {
      const after = query.modifiedAfter;
      checks.push((item) => item.modifiedGmt > after);
    }
    if (query.modifiedBefore !== undefined) {
      const before = query.modifiedBefore;
      checks.push((item) => item.modifiedGmt < before);
    }
  }
  return checks;
}

/** Category and tag clauses (joined by `tax_relation`) and their exclusions. */
function termPredicates(store: LangStore, query: ListQuery): Predicate[] {
  const checks: Predicate[] = [];
  const taxonomy: Predicate[] = [];
  if (query.categories && query.categories.terms.length > 0) {
    taxonomy.push(termClause(store, query.categories, 'categories'));
  }
  if (query.tags && query.tags.terms.length > 0)
    taxonomy.push(termClause(store, query.tags, 'tags'));
  if (taxonomy.length > 0) {
    checks.push(
      query.taxRelation === 'OR'
        ? (item) => taxonomy.some((clause) => clause(item))
        : (item) => taxonomy.every((clause) => clause(item)),
    );
  }
  if (query.categoriesExclude && query.categoriesExclude.terms.length > 0) {
    const terms = expandTerms(store, query.categoriesExclude);
    checks.push((item) => !item.categories.some((term) => terms.has(term)));
  }
  if (query.tagsExclude && query.tagsExclude.terms.length > 0) {
    const terms = new Set(query.tagsExclude.terms);
    checks.push((item) => !item.tags.some((term) => terms.has(term)));
  }
  return checks;
}

function buildPredicates(
  store: LangStore,
  query: ListQuery,
  rangeKey: 'date' | 'modified' | undefined,
): Predicate[] {
  const checks: Predicate[] = [];
  const { statuses } = query;
  if (statuses?.size === 1) {
    const only = [...statuses][0];
    checks.push((item) => item.status === only);
  } else if (statuses) checks.push((item) => statuses.has(item.status));
  else checks.push((item) => item.status !== 'trash' && item.status !== 'auto-draft');
  checks.push(...datePredicates(query, rangeKey));
  const set = (values: readonly number[] | undefined): Set<number> | undefined =>
    values && values.length > 0 ? new Set(values) : undefined;
  const author = set(query.author);
  if (author) checks.push((item) => author.has(item.author));
  const authorExclude = set(query.authorExclude);
  if (authorExclude) checks.push((item) => !authorExclude.has(item.author));
  const include = set(query.include);
  if (include) checks.push((item) => include.has(item.id));
  const exclude = set(query.exclude);
  if (exclude) checks.push((item) => !exclude.has(item.id));
  const parent = set(query.parent);
  if (parent) checks.push((item) => parent.has(item.parent));
  const parentExclude = set(query.parentExclude);
  if (parentExclude) checks.push((item) => !parentExclude.has(item.parent));
  if (query.slug && query.slug.length > 0) {
    const slugs = new Set(query.slug);
    checks.push((item) => slugs.has(item.slug));
  }
  if (query.menuOrder !== undefined) {
    const menuOrder = query.menuOrder;
    checks.push((item) => item.menuOrder === menuOrder);
  }
  checks.push(...termPredicates(store, query));
  if (query.sticky !== undefined) {
    const sticky = query.sticky;
    checks.push((item) => item.sticky === sticky);
  }
  if (query.format && query.format.length > 0) {
    const formats = new Set(query.format);
    checks.push((item) => formats.has(item.format));
  }
  if (query.mediaType && query.mediaType.length > 0) {
    const types = new Set(query.mediaType);
    checks.push((item) => types.has((item.media?.mimeType ?? '').split('/')[0] ?? ''));
  }
  if (query.mimeType && query.mimeType.length > 0) {
    const types = new Set(query.mimeType);
    checks.push((item) => types.has(item.media?.mimeType ?? ''));
  }
  const search = searchPredicate(query);
  if (search) checks.push(search);
  return checks;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function comparatorFor(query: ListQuery): (a: StoredItem, b: StoredItem) => number {
  const direction = query.order === 'asc' ? 1 : -1;
  const tie = (a: StoredItem, b: StoredItem): number => (a.id - b.id) * direction;
  switch (query.orderby) {
    case 'author':
      return (a, b) => (a.author - b.author) * direction || tie(a, b);
    case 'parent':
      return (a, b) => (a.parent - b.parent) * direction || tie(a, b);
    case 'menu_order':
      return (a, b) => (a.menuOrder - b.menuOrder) * direction || tie(a, b);
    case 'slug':
      return (a, b) => compareStrings(a.slug, b.slug) * direction || tie(a, b);
    case 'title': {
      const keys = new Map<StoredItem, string>();
      const key = (item: StoredItem): string => {
        let value = keys.get(item);
        if (value === undefined) keys.set(item, (value = item.title.toLowerCase()));
        return value;
      };
      return (a, b) => compareStrings(key(a), key(b)) * direction || tie(a, b);
    }
    case 'include': {
      const position = new Map((query.include ?? []).map((id, index) => [id, index]));
      return (a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0);
    }
    case 'include_slugs': {
      const position = new Map((query.slug ?? []).map((slug, index) => [slug, index]));
      return (a, b) => (position.get(a.slug) ?? 0) - (position.get(b.slug) ?? 0) || a.id - b.id;
    }
    case 'relevance': {
      const phrase = (query.search ?? '').trim().toLowerCase();
      const words = phrase.split(/\s+/).filter(Boolean);
      const score = (item: StoredItem): number => {
        const title = item.title.toLowerCase();
        if (phrase && title.includes(phrase)) return 3;
        if (words.every((word) => title.includes(word))) return 2;
        if (words.some((word) => title.includes(word))) return 1;
        return 0;
      };
      return (a, b) => score(b) - score(a) || b.dateGmt - a.dateGmt || b.id - a.id;
    }
    case 'modified':
      return (a, b) => (a.modifiedGmt - b.modifiedGmt) * direction || tie(a, b);
    case 'id':
      return (a, b) => tie(a, b);
    default:
      return (a, b) => (a.dateGmt - b.dateGmt) * direction || tie(a, b);
  }
}

function pageBounds(query: ListQuery): [number, number] {
  const start = query.offset !== undefined ? query.offset : (query.page - 1) * query.perPage;
  return [start, start + query.perPage];
}

function finish(total: number, items: StoredItem[], query: ListQuery): ListResult {
  return { items, total, totalPages: Math.ceil(total / query.perPage) };
}

export function runListQuery(store: LangStore, index: TypeIndex, query: ListQuery): ListResult {
  const presorted: Record<string, SortedItems<StoredItem>> = {
    date: index.byDate,
    modified: index.byModified,
    id: index.byId,
  };
  const sorted = query.stickyFirst ? undefined : presorted[query.orderby];
  if (sorted) return walkPresorted(store, sorted, query);
  const accept = combine(buildPredicates(store, query, undefined));
  const matches = index.all.filter(accept);
  matches.sort(comparatorFor(query));
  if (query.stickyFirst) {
    const sticky = matches.filter((item) => item.sticky);
    const rest = matches.filter((item) => !item.sticky);
    matches.splice(0, matches.length, ...sticky, ...rest);
  }
  const [start, end] = pageBounds(query);
  return finish(matches.length, matches.slice(start, end), query);
}

function walkPresorted(
  store: LangStore,
  sorted: SortedItems<StoredItem>,
  query: ListQuery,
): ListResult {
  const rangeKey =
    query.orderby === 'date' ? 'date' : query.orderby === 'modified' ? 'modified' : undefined;
  let low = 0;
  let high = sorted.items.length;
  const lowerBound =
    rangeKey === 'date' ? query.after : rangeKey === 'modified' ? query.modifiedAfter : undefined;
  const upperBound =
    rangeKey === 'date' ? query.before : rangeKey === 'modified' ? query.modifiedBefore : undefined;
  // Both bounds are exclusive (observed: an item modified exactly at the given second is not returned).
  if (lowerBound !== undefined) low = sorted.upperBound(lowerBound);
  if (upperBound !== undefined) high = Math.min(high, sorted.lowerBound(upperBound));
  const accept = combine(buildPredicates(store, query, rangeKey));
  // Counted once per filter signature and store version, not walked on every request.
  const prefix = prefixCounts(sorted, signatureOf(query, rangeKey), store.version, accept);
  const before = prefix[low] as number;
  const total = high > low ? (prefix[high] as number) - before : 0;
  const [start, end] = pageBounds(query);
  const wanted = Math.min(end, total) - start;
  const items: StoredItem[] = [];
  const list = sorted.items;
  if (wanted > 0 && query.order === 'asc') {
    for (let i = positionOfRank(prefix, before + start); items.length < wanted; i++) {
      const item = list[i] as StoredItem;
      if (accept(item)) items.push(item);
    }
  } else if (wanted > 0) {
    const top = (prefix[high] as number) - 1 - start;
    for (let i = positionOfRank(prefix, top); items.length < wanted; i--) {
      const item = list[i] as StoredItem;
      if (accept(item)) items.push(item);
    }
  }
  return finish(total, items, query);
}

/** The filters of `query` as a string: everything but paging, order and the walked range. */
function signatureOf(query: ListQuery, rangeKey: 'date' | 'modified' | undefined): string {
  const { page: _page, perPage: _perPage, offset: _offset, order: _order, ...filters } = query;
  const omitted = new Set<string>(
    rangeKey === 'date'
      ? ['after', 'before']
      : rangeKey === 'modified'
        ? ['modifiedAfter', 'modifiedBefore']
        : [],
  );
  return JSON.stringify(filters, (key, value: unknown) =>
    omitted.has(key) ? undefined : value instanceof Set ? [...(value as Set<unknown>)] : value,
  );
}

/** One predicate from many, without an iterator per item. */
function combine(predicates: Predicate[]): Predicate {
  const [first, second] = predicates;
  if (predicates.length === 0) return () => true;
  if (predicates.length === 1) return first as Predicate;
  if (predicates.length === 2)
    return (item) => (first as Predicate)(item) && (second as Predicate)(item);
  const count = predicates.length;
  return (item) => {
    for (let k = 0; k < count; k++) if (!(predicates[k] as Predicate)(item)) return false;
    return true;
  };
}
