import { beforeEach, describe, expect, it } from 'vitest';
import type { PlanStep, SourceItem } from '../../../src/migrate/planner.js';
import type { SiteSession } from '../../../src/push/site-session.js';
import { scanTarget, type StepFinding } from '../../../src/migrate/target-scan.js';
import { FakeTarget, type TargetItem } from '../../helpers/fake-target.js';

/**
 * What a migration finds on the target before its first write, in-process against an
 * in-memory target: its own copies a killed run left (by slug, among the drafts when the item
 * has no slug, by title beside a person's item), and a person's items holding a slug it needs
 * (conflicts; for pages only where the new page would sit). Also what it asks the target.
 */
const EDIT = ['publish', 'future', 'draft', 'pending', 'private'];

function source(
  type: 'posts' | 'pages',
  id: number,
  fields: Record<string, unknown> = {},
): SourceItem {
  const slug = (fields.slug as string | undefined) ?? `item-${id}`;
  return {
    type,
    id,
    json: {
      id,
      slug,
      status: 'publish',
      date_gmt: '2024-03-01T10:00:00',
      title: { raw: `Title ${String.fromCharCode(64 + id)}` },
      content: { raw: `<p>Text of ${String.fromCharCode(64 + id)}.</p>` },
      excerpt: { raw: '' },
      ...(type === 'pages' ? { parent: 0 } : {}),
      ...fields,
    },
  };
}

/** What a migration would have created on the target from `item`. */
function copyOf(item: SourceItem, fields: Record<string, unknown> = {}): Record<string, unknown> {
  const json = item.json as Record<string, unknown>;
  return {
    slug: json.slug,
    status: json.status,
    date_gmt: json.date_gmt,
    title: json.title,
    content: json.content,
    excerpt: json.excerpt,
    ...fields,
  };
}

/** A person's item: same slug, other text. */
const persons = (item: SourceItem, fields: Record<string, unknown> = {}) => ({
  ...copyOf(item),
  title: { raw: 'Written by a person' },
  content: { raw: '<p>Other text.</p>' },
  ...fields,
});

const step = (item: SourceItem, parentSourceId = 0): PlanStep => ({
  type: item.type,
  sourceId: item.id,
  slug: item.json.slug as string,
  title: '',
  parentSourceId,
  action: 'create',
  targetId: undefined,
});

type Found = [number, string, number[]];

describe('scanTarget (what the target already holds for the items still to create)', () => {
  let target: FakeTarget;
  let claimed: Set<number>;
  let counted: number;
  beforeEach(() => {
    target = new FakeTarget();
    claimed = new Set();
    counted = 0;
  });

  async function scan(
    type: 'posts' | 'pages',
    items: SourceItem[],
    options: {
      parents?: Record<number, number>;
      session?: SiteSession;
      steps?: PlanStep[];
    } = {},
  ): Promise<Found[]> {
    const found: Found[] = [];
    const describeFinding = (finding: StepFinding): [string, number[]] =>
      finding.kind === 'own'
        ? ['own', [finding.target.id as number]]
        : finding.kind === 'conflict'
          ? ['conflict', finding.targets.map((t) => t.id as number)]
          : ['free', []];
    await scanTarget({
      session: options.session ?? target.session(),
      steps: options.steps ?? items.map((item) => step(item, (item.json.parent as number) ?? 0)),
      type,
      byId: new Map(items.map((item) => [`${item.type}:${item.id}`, item])),
      claimed,
      parentTarget: (id) => options.parents?.[id],
      onFinding: (s, finding) => found.push([s.sourceId, ...describeFinding(finding)]),
      countRequest: () => (counted += 1),
    });
    return found;
  }
  const gets = () => target.requests.filter((r) => r.method === 'GET');

  it('finds its own copies by slug, in listings of at most a page of slugs, and counts each request', async () => {
    target.perPage = 2;
    const items = [1, 2, 3, 4, 5].map((id) => source('posts', id));
    const copy2 = target.put('cms/v2/posts', copyOf(items[1]!));
    const copy5 = target.put('cms/v2/posts', copyOf(items[4]!));
    expect(await scan('posts', items)).toEqual([
      [1, 'free', []],
      [2, 'own', [copy2.id]],
      [3, 'free', []],
      [4, 'free', []],
      [5, 'own', [copy5.id]],
    ]);
    expect(gets().map((r) => r.query)).toEqual([
      { slug: ['item-1', 'item-2'], per_page: 2, context: 'edit', status: EDIT, page: 1 },
      { slug: ['item-3', 'item-4'], per_page: 2, context: 'edit', status: EDIT, page: 1 },
      { slug: ['item-5'], per_page: 2, context: 'edit', status: EDIT, page: 1 },
    ]);
    expect(gets().every((r) => r.route === 'cms/v2/posts')).toBe(true);
    expect(counted).toBe(3);
    expect([...claimed].sort()).toEqual([copy2.id, copy5.id].sort());
  });

  it('reads every page of a slug listing', async () => {
    target.perPage = 1;
    const item = source('posts', 1);
    const first = target.put('cms/v2/posts', persons(item));
    const second = target.put('cms/v2/posts', persons(item, { title: { raw: 'Another' } }));
    const own = target.put('cms/v2/posts', copyOf(item));
    expect(await scan('posts', [item])).toEqual([[1, 'own', [own.id]]]);
    expect(gets().filter((r) => r.query?.slug !== undefined)).toHaveLength(3);
    expect(counted).toBe(3);
    expect(first.id).not.toBe(second.id);
  });

  it("reports a person's items with the slug as a conflict, after looking for a copy beside them by title", async () => {
    const item = source('posts', 1);
    const person = target.put('cms/v2/posts', persons(item));
    const another = target.put('cms/v2/posts', persons(item, { title: { raw: 'Also a person' } }));
    expect(await scan('posts', [item])).toEqual([[1, 'conflict', [person.id, another.id]]]);
    const search = gets().find((r) => r.query?.search !== undefined);
    expect(search?.query).toEqual({
      search: 'Title A',
      search_columns: ['post_title'],
      per_page: 100,
      context: 'edit',
      status: EDIT,
    });
    expect(counted).toBe(2);
  });

  it("takes a copy made beside a person's item (another slug) found by its title", async () => {
    const item = source('posts', 1);
    target.put('cms/v2/posts', persons(item));
    const beside = target.put('cms/v2/posts', copyOf(item, { slug: 'item-1-2' }));
    expect(await scan('posts', [item])).toEqual([[1, 'own', [beside.id]]]);
    expect(claimed.has(beside.id)).toBe(true);
  });

  it('searches by the title as the source has it (text, rendered only), trimmed; never for no title', async () => {
    const plain = source('posts', 1, { title: '  Plain title  ' });
    const rendered = source('posts', 2, { title: { rendered: 'Rendered title' } });
    const none = source('posts', 3, { title: { raw: 7 } });
    const missing = source('posts', 4);
    delete (missing.json as Record<string, unknown>).title;
    for (const item of [plain, rendered, none, missing]) target.put('cms/v2/posts', persons(item));
    await scan('posts', [plain, rendered, none, missing]);
    expect(gets().flatMap((r) => (r.query?.search === undefined ? [] : [r.query.search]))).toEqual([
      'Plain title',
      'Rendered title',
    ]);
    expect(counted).toBe(3);
  });

  it('never takes a target item already mapped to another source item', async () => {
    const item = source('posts', 1);
    const copy = target.put('cms/v2/posts', copyOf(item));
    claimed.add(copy.id);
    // The copy is not a person's item either: nothing to conflict with.
    expect(await scan('posts', [item])).toEqual([[1, 'free', []]]);
  });

  it('looks among the drafts for copies of items without a slug, each copy taken once', async () => {
    const a = source('posts', 1, { slug: '', status: 'draft' });
    const b = source('posts', 2, { slug: '', status: 'draft', title: { raw: 'Title A' } });
    // Same text: two slugless drafts with one copy each (and a published item, not a draft).
    const bJson = b.json as Record<string, unknown>;
    bJson.content = a.json.content;
    const copyA = target.put('cms/v2/posts', copyOf(a));
    const copyB = target.put('cms/v2/posts', copyOf(b));
    expect(await scan('posts', [a, b])).toEqual([
      [1, 'own', [copyA.id]],
      [2, 'own', [copyB.id]],
    ]);
    expect(gets().map((r) => r.query)).toEqual([
      {
        per_page: 100,
        context: 'edit',
        status: ['draft', 'pending'],
        orderby: 'id',
        order: 'asc',
        page: 1,
      },
    ]);
    expect(counted).toBe(1);
  });

  it('asks for no drafts when every item has a slug, and for no slugs when none has', async () => {
    await scan('posts', [source('posts', 1)]);
    expect(gets().map((r) => r.query?.status)).toEqual([EDIT]);
    target.requests.length = 0;
    await scan('posts', [source('posts', 2, { slug: '' })]);
    expect(gets().map((r) => r.query?.status)).toEqual([['draft', 'pending']]);
    target.requests.length = 0;
    await scan('posts', [source('posts', 3), source('posts', 4, { slug: '' })]);
    expect(gets().map((r) => r.query?.status)).toEqual([EDIT, ['draft', 'pending']]);
  });

  it('reads every page of the drafts', async () => {
    target.perPage = 1;
    const a = source('posts', 1, { slug: '' });
    target.put('cms/v2/posts', { ...persons(a), status: 'draft' });
    const copy = target.put('cms/v2/posts', { ...copyOf(a), status: 'pending' });
    expect(await scan('posts', [a])).toEqual([[1, 'own', [copy.id]]]);
    expect(counted).toBe(2);
  });

  it('matches a slug the target answers decoded or encoded, and skips items without a slug', async () => {
    const encoded = source('posts', 1, { slug: '%c5%bc%c3%b3%c5%82w' });
    const broken = source('posts', 2, { slug: 'bad-%zz' });
    // A slug that reads like a missing one is still a slug.
    const named = source('posts', 3, { slug: 'undefined' });
    const unnumbered = source('posts', 4, { slug: 'no-id' });
    const answers = [
      { id: 900, ...persons(encoded), slug: undefined },
      { id: 901, ...persons(encoded), slug: 'żółw' },
      { id: 902, ...persons(broken), slug: 'bad-%zz' },
      { id: 903, ...persons(encoded), slug: 'other' },
      // Another slug that cannot be decoded either: not the same slug.
      { id: 904, ...persons(broken), slug: 'worse-%yy' },
      // A copy without an id cannot be recorded: never taken.
      { ...copyOf(unnumbered) },
    ] as TargetItem[];
    const listed: unknown[] = [];
    const session = {
      lang: 'pl',
      index: { perPageMax: () => 100 },
      client: {
        paginate: async function* (route: string, query: Record<string, unknown>) {
          listed.push({ route, query });
          yield { items: answers, hasNext: false };
        },
        listPage: async () => ({ items: [] }),
      },
    } as unknown as SiteSession;
    expect(await scan('posts', [encoded, broken, named, unnumbered], { session })).toEqual([
      [1, 'conflict', [901]],
      [2, 'conflict', [902]],
      [3, 'free', []],
      [4, 'free', []],
    ]);
    expect(listed).toHaveLength(1);
  });

  it("places pages: a person's page clashes only under the same parent", async () => {
    const top = source('pages', 1);
    const child = source('pages', 2, { parent: 1 });
    const orphan = source('pages', 3, { parent: 9 });
    const elsewhere = source('pages', 4);
    const topPerson = target.put('cms/v2/pages', persons(top, { parent: undefined }));
    const childPerson = target.put('cms/v2/pages', persons(child, { parent: 55 }));
    target.put('cms/v2/pages', persons(orphan, { parent: 0 }));
    target.put('cms/v2/pages', persons(elsewhere, { parent: 77 }));
    expect(
      await scan('pages', [top, child, orphan, elsewhere], {
        // Page 1's copy is known to be 55; page 9's parent is still to be created.
        parents: { 1: 55 },
        steps: [step(top), step(child, 1), step(orphan, 9), step(elsewhere)],
      }),
    ).toEqual([
      [1, 'conflict', [topPerson.id]],
      [2, 'conflict', [childPerson.id]],
      [3, 'free', []],
      [4, 'free', []],
    ]);
    const pageRequests = gets().filter((r) => r.route === 'cms/v2/pages');
    expect(pageRequests.length).toBe(gets().length);
  });

  it('a child page whose parent sits elsewhere does not clash', async () => {
    const child = source('pages', 2, { parent: 1 });
    target.put('cms/v2/pages', persons(child, { parent: 0 }));
    expect(await scan('pages', [child], { parents: { 1: 55 }, steps: [step(child, 1)] })).toEqual([
      [2, 'free', []],
    ]);
  });
});
