import { beforeEach, describe, expect, it } from 'vitest';
import type { CreateRun } from '../../../src/migrate/create-items.js';
import type { MigrateContext } from '../../../src/migrate/recovery.js';
import type { CreatedItem } from '../../../src/migrate/relink.js';
import { relinkCreated } from '../../../src/migrate/relink-run.js';
import { emptyReport } from '../../../src/migrate/report.js';
import type { Store } from '../../../src/store/index.js';
import { FakeTarget, type TargetItem } from '../../helpers/fake-target.js';

/**
 * The migration's second pass, in-process against an in-memory target: items created before
 * the items they link to are updated once every target URL is known, in batches (or one by
 * one where the target allows no batch), and an update the target refuses is a warning that
 * names the item.
 */
const SRC = 'https://source.test/pl';
const GUESSED = (slug: string) => `https://target.test/${slug}/`;
const GIVEN = (slug: string) => `https://target.test/${slug}-2/`;
const linkTo = (url: string) => `<p>See <a href="${url}">this</a>.</p>`;

describe('relinkCreated (links to items created later are updated)', () => {
  let target: FakeTarget;
  let lines: string[];
  beforeEach(() => {
    target = new FakeTarget();
    lines = [];
  });

  function run(created: CreatedItem[], maxItems = 25): CreateRun {
    const context: MigrateContext = {
      ids: { posts: new Map(), pages: new Map(), media: new Map() },
      authors: new Map(),
      // The target gave every linked item another slug than the source's (`-2`).
      urls: new Map(
        ['post-a', 'post-b', 'post-c', 'post-d'].map((slug) => [`${SRC}/${slug}/`, GIVEN(slug)]),
      ),
      sourceHome: `${SRC}/`,
      targetHome: 'https://target.test/',
      sourceUrl: 'https://source.test',
      targetUrl: 'https://target.test',
    };
    return {
      // The second pass records nothing in the cache (the items are mapped already).
      store: undefined as unknown as Store,
      session: target.session(),
      byId: new Map(),
      context,
      keys: { sourceKey: 'https://source.test#pl', targetKey: 'https://target.test#pl' },
      maxItems,
      report: emptyReport(),
      onLine: (line) => lines.push(line),
      created,
    };
  }

  /** An item on the target as the first pass created it, linking by the guessed path. */
  function createdOnTarget(
    type: 'posts' | 'pages',
    sourceId: number,
    links: string | undefined,
    excerptLinks?: string,
  ): CreatedItem & { onTarget: TargetItem } {
    const content = links === undefined ? '<p>No links.</p>' : linkTo(`${SRC}/${links}/`);
    const sentContent = links === undefined ? content : linkTo(GUESSED(links));
    const excerpt = excerptLinks === undefined ? '' : linkTo(`${SRC}/${excerptLinks}/`);
    const sentExcerpt = excerptLinks === undefined ? undefined : linkTo(GUESSED(excerptLinks));
    const onTarget = target.create(`cms/v2/${type}`, {
      slug: `${type}-${sourceId}`,
      title: `Item ${sourceId}`,
      content: sentContent,
      ...(sentExcerpt === undefined ? {} : { excerpt: sentExcerpt }),
    });
    return {
      type,
      sourceId,
      targetId: onTarget.id,
      parentSourceId: 0,
      json: {
        id: sourceId,
        slug: `${type}-${sourceId}`,
        title: { raw: `Item ${sourceId}` },
        content: { raw: content },
        excerpt: { raw: excerpt },
        link: `${SRC}/${type}-${sourceId}/`,
        ...(type === 'pages' ? { parent: 0 } : {}),
      },
      sent: {
        title: `Item ${sourceId}`,
        content: sentContent,
        ...(sentExcerpt === undefined ? {} : { excerpt: sentExcerpt }),
      },
      onTarget,
    };
  }

  const raw = (item: TargetItem, field: string) => (item[field] as { raw: string }).raw;
  const writes = () => target.requests.filter((request) => request.method === 'POST');

  it('updates, in batches of the allowed size, every item whose links now point elsewhere', async () => {
    const page = createdOnTarget('pages', 1, 'post-a');
    const unchanged = createdOnTarget('posts', 2, undefined);
    const post = createdOnTarget('posts', 3, 'post-b', 'post-c');
    const last = createdOnTarget('posts', 4, 'post-d');
    const r = run([page, unchanged, post, last], 2);
    await relinkCreated(r);

    expect(raw(page.onTarget, 'content')).toBe(linkTo(GIVEN('post-a')));
    expect(raw(post.onTarget, 'content')).toBe(linkTo(GIVEN('post-b')));
    expect(raw(post.onTarget, 'excerpt')).toBe(linkTo(GIVEN('post-c')));
    expect(raw(last.onTarget, 'content')).toBe(linkTo(GIVEN('post-d')));
    expect(raw(unchanged.onTarget, 'content')).toBe('<p>No links.</p>');

    const batches = writes();
    expect(batches.map((b) => b.route)).toEqual(['batch/v1', 'batch/v1']);
    expect(batches.map((b) => (b.body as { path: string }[]).map((x) => x.path))).toEqual([
      [`/cms/v2/pages/${page.targetId}`, `/cms/v2/posts/${post.targetId}`],
      [`/cms/v2/posts/${last.targetId}`],
    ]);
    // Only the fields that changed are sent, and an update may be sent again.
    expect((batches[0]!.body as { method: string; body: unknown }[])[0]).toEqual({
      method: 'POST',
      path: `/cms/v2/pages/${page.targetId}`,
      body: { content: linkTo(GIVEN('post-a')) },
    });
    for (const batch of batches) {
      expect(batch.query).toEqual({ validation: 'normal' });
      expect(batch.idempotent).toBe(true);
    }
    expect(r.report).toMatchObject({ relinked: 3, batches: 2, requests: 2, warnings: [] });
    expect(lines).toEqual(['updated links in 3 item(s) created before their targets']);
  });

  it('updates one item per request where the target allows no batch', async () => {
    target.batch = false;
    const page = createdOnTarget('pages', 1, 'post-a');
    const post = createdOnTarget('posts', 2, 'post-b');
    const r = run([page, post]);
    await relinkCreated(r);
    expect(raw(page.onTarget, 'content')).toBe(linkTo(GIVEN('post-a')));
    expect(raw(post.onTarget, 'content')).toBe(linkTo(GIVEN('post-b')));
    expect(writes().map((w) => [w.route, w.idempotent])).toEqual([
      [`cms/v2/pages/${page.targetId}`, true],
      [`cms/v2/posts/${post.targetId}`, true],
    ]);
    expect(writes()[0]!.body).toEqual({ content: linkTo(GIVEN('post-a')) });
    expect(r.report).toMatchObject({ relinked: 2, batches: 0, requests: 2 });
    expect(lines).toEqual(['updated links in 2 item(s) created before their targets']);
  });

  it.each([
    ['in a batch', true],
    ['one by one', false],
  ])(
    'says which item kept its first-pass links when the target refuses its update (%s)',
    async (_, batch) => {
      target.batch = batch;
      const first = createdOnTarget('posts', 1, 'post-a');
      const second = createdOnTarget('pages', 2, 'post-b');
      const third = createdOnTarget('posts', 3, 'post-c');
      const gone = createdOnTarget('posts', 4, 'post-d');
      target.items.set(
        'cms/v2/posts',
        target.items.get('cms/v2/posts')!.filter((item) => item.id !== gone.targetId),
      );
      // The refused update is the second of the second chunk.
      const r = run([first, second, third, gone], 2);
      await relinkCreated(r);
      expect(raw(second.onTarget, 'content')).toBe(linkTo(GIVEN('post-b')));
      expect(raw(third.onTarget, 'content')).toBe(linkTo(GIVEN('post-c')));
      expect(r.report.relinked).toBe(3);
      expect(r.report.warnings).toEqual([
        'posts 4: links to items created after it not updated (rest_post_invalid_id: Invalid post ID.)',
      ]);
      expect(lines).toEqual(['updated links in 3 item(s) created before their targets']);
    },
  );

  it('sends a chunk one by one when the target allows a batch for only some of its routes', async () => {
    const session = target.session();
    const allows = session.index.allowsBatch.bind(session.index);
    (session.index as { allowsBatch: typeof allows }).allowsBatch = (route, method) =>
      route.startsWith('cms/v2/pages') && allows(route, method);
    const page = createdOnTarget('pages', 1, 'post-a');
    const post = createdOnTarget('posts', 2, 'post-b');
    const r = { ...run([page, post]), session };
    await relinkCreated(r);
    expect(writes().map((w) => w.route)).toEqual([
      `cms/v2/pages/${page.targetId}`,
      `cms/v2/posts/${post.targetId}`,
    ]);
    expect(raw(post.onTarget, 'content')).toBe(linkTo(GIVEN('post-b')));
    expect(r.report).toMatchObject({ relinked: 2, batches: 0, requests: 2 });
  });

  it('says nothing and sends nothing when no link changed; names source URLs that match nothing', async () => {
    const plain = createdOnTarget('posts', 1, undefined);
    const r = run([plain]);
    r.created.push({
      ...plain,
      sourceId: 9,
      json: { ...plain.json, content: { raw: linkTo(`${SRC}/nowhere/`) } },
      sent: { content: linkTo(`${SRC}/nowhere/`) },
    });
    await relinkCreated(r);
    expect(target.requests).toEqual([]);
    expect(r.report.relinked).toBe(0);
    expect(r.report.warnings).toEqual([
      `${SRC}/nowhere/ matches no migrated item or file; left as it is`,
    ]);
    expect(lines).toEqual([]);
  });

  it('runs without a progress line callback', async () => {
    const r = { ...run([createdOnTarget('posts', 1, 'post-a')]), onLine: undefined };
    await relinkCreated(r);
    expect(r.report.relinked).toBe(1);
  });
});
