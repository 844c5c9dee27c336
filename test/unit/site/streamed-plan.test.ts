/**
 * Issue 17: a full build plans from posts read again from the cache a window at a time
 * (`streamPosts`), holding none of them. Its plan must be the plan of the same posts held
 * whole: every page's file and digest, every file the build writes, the search bundles and
 * their documents, the jobs rendered, the warnings. More posts than two windows of reading,
 * sticky posts in several, a post not transformed, one that is not public, two that claim one
 * path, and equal dates, so that the windows' edges and the claims are crossed. A site this
 * small holds its posts as first read (`heldPosts`): its plan is the same again, and it reads
 * each post from the cache once.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { modelFromStore } from '../../../src/site/model-from-store.js';
import { placeSite, planPlaced, planSite, type HeldPlan } from '../../../src/site/site-plan.js';
import { type CmsItem } from '../../../src/store/index.js';
import { useTempStore } from '../../helpers/store/temp-store.js';
import { countedPostReads } from '../../helpers/site/counted-posts.js';
import { storeTransform } from '../../helpers/site/stored-transform.js';

const cache = useTempStore({ prefix: 'cms-streamed-plan-' });
const POSTS = 2600;
const STICKY = new Set([1005, 2500, 3599]);
const NOT_TRANSFORMED = 1200;
const DRAFT = 1700;
/** Two posts at one path: the older (smaller id) keeps it. */
const SAME_PATH = [2100, 2101];

function post(id: number): CmsItem {
  // Two posts a day: equal dates are ordered by id.
  const day = Math.floor(id / 2);
  const date = new Date(Date.UTC(2020, 0, 1) + day * 3_600_000).toISOString().slice(0, 19);
  return {
    id,
    status: id === DRAFT ? 'draft' : 'publish',
    slug: `p${id}`,
    link: `http://h/pl/p${id}/`,
    date_gmt: date,
    modified_gmt: date,
    title: { rendered: `Wpis ${id} zażółć` },
    content: { rendered: `<p>Treść ${id}</p>`, protected: false },
    excerpt: { rendered: id % 3 === 0 ? '' : `<p>Zajawka ${id}</p>`, protected: false },
    sticky: STICKY.has(id),
    featured_media: 0,
  };
}

beforeEach(() => {
  cache.store.siteInfo.set('pl', {
    lang: 'pl',
    name: 'Strona',
    description: 'Opis',
    home: 'http://h/pl/',
  });
  const items = Array.from({ length: POSTS }, (_, at) => post(at + 1000));
  cache.store.items.upsertPage('pl', 'posts', items);
  for (const item of items) {
    if (item.id === NOT_TRANSFORMED) continue;
    storeTransform(cache.store, {
      lang: 'pl',
      type: 'posts',
      id: item.id,
      html: `<p>Treść ${item.id}</p>`,
      excerpt: item.id % 3 === 0 ? '' : `Zajawka ${item.id}`,
      sitePath: SAME_PATH.includes(item.id) ? '/same/' : `/p${item.id}/`,
    });
  }
});

const OPTIONS = { postsPerPage: 7, searchDocsPerShard: 300, feedSize: 20 };
/** Read again a window at a time: no post held. */
const WINDOWED = { ...OPTIONS, heldPosts: 0 };

function digests(plan: HeldPlan) {
  return {
    jobs: plan.jobs.map((job) => [job.kind, job.file, job.digest]),
    files: plan.files.map((file) => [file.file, file.input, file.content()]),
    search: plan.search.shards.map((shard) => [
      shard.dir,
      shard.digest,
      shard.docs.map((doc) => [doc.key, doc.url, doc.title, doc.digest, doc.html]),
    ]),
    modelDigest: plan.modelDigest,
    warnings: plan.warnings,
  };
}

describe('a plan from posts read again a window at a time', () => {
  it('is the plan of the same posts held whole, and the model holds none of them', () => {
    const options = { lang: 'pl', languages: [{ lang: 'pl' }] };
    const held = modelFromStore(cache.store, options);
    const streamed = modelFromStore(cache.store, { ...options, streamPosts: true });
    expect(streamed.model.posts).toEqual([]);
    // Every public post (the one not transformed is left out when read).
    expect(streamed.model.postSource?.size).toBe(POSTS - 1);
    expect(held.model.posts.length).toBe(POSTS - 2);

    const whole = planSite(held.model, OPTIONS);
    const read = planSite(streamed.model, WINDOWED);
    expect(digests(read)).toEqual(digests(whole));
    expect(digests(planSite(streamed.model, OPTIONS))).toEqual(digests(whole));
    expect(streamed.warnings).toEqual(held.warnings);
    expect(held.warnings.join('\n')).toContain(`posts ${NOT_TRANSFORMED} left out`);
    expect(whole.warnings.join('\n')).toContain(`post ${SAME_PATH[1]} left out`);

    // What the posts' pages and the listings show, by the order of the posts made above
    // (newest first, the larger id first on equal dates; sticky ones first on the listings).
    const shown = Array.from({ length: POSTS }, (_, at) => at + 1000)
      .filter((id) => id !== DRAFT && id !== NOT_TRANSFORMED && id !== SAME_PATH[1])
      .sort((a, b) => Math.floor(b / 2) - Math.floor(a / 2) || b - a);
    const title = (id: number | undefined): string | undefined =>
      id === undefined ? undefined : `Wpis ${id} zażółć`;
    const postJobs = read.jobs.filter((job) => job.kind === 'post').map((job) => job.job());
    expect(postJobs.map((job) => (job as { post?: { title: string } }).post?.title)).toEqual(
      shown.map(title),
    );
    postJobs.forEach((job, at) => {
      const links = job as { older?: { title: string }; newer?: { title: string } };
      expect([links.older?.title, links.newer?.title]).toEqual([
        title(shown[at + 1]),
        title(shown[at - 1]),
      ]);
    });
    const listed = [
      ...shown.filter((id) => STICKY.has(id)),
      ...shown.filter((id) => !STICKY.has(id)),
    ];
    const home = read.jobs.find((job) => job.file === 'index.html')?.job() as
      { posts?: { title: string }[] } | undefined;
    expect(home?.posts?.map((card) => card.title)).toEqual(listed.slice(0, 7).map(title));

    // Every job rendered: across the windows' edges, the listing pages of sticky posts.
    const byFile = new Map(whole.jobs.map((job) => [job.file, job]));
    expect(read.jobs.length).toBeGreaterThan(POSTS);
    for (const job of read.jobs) expect(job.job()).toEqual(byFile.get(job.file)?.job());

    // As a build walks its plan: the jobs made as the list is walked, 500 at a time, each
    // chunk's jobs built before the next is taken (the reads of the posts interleave).
    const walked = planPlaced(placeSite(streamed.model, WINDOWED)).jobs;
    expect(walked.length).toBe(whole.jobs.length);
    let chunk: { kind: string; file: string; digest: string; job: () => unknown }[] = [];
    const seen: string[] = [];
    const flush = (): void => {
      for (const job of chunk) {
        const held = byFile.get(job.file);
        expect([job.kind, job.digest]).toEqual([held?.kind, held?.digest]);
        expect(job.job()).toEqual(held?.job());
        seen.push(job.file);
      }
      chunk = [];
    };
    for (const job of walked) {
      chunk.push(job);
      if (chunk.length === 500) flush();
    }
    flush();
    expect(seen).toEqual(whole.jobs.map((job) => job.file));
  }, 240_000);

  it('reads each post from the cache once when the site holds its posts', () => {
    const options = { lang: 'pl', languages: [{ lang: 'pl' }] };
    const whole = planSite(modelFromStore(cache.store, options).model, OPTIONS);
    const { model } = modelFromStore(cache.store, { ...options, streamPosts: true });
    const { model: counted, reads } = countedPostReads(model);
    // As a full build uses its plan: every page's job made, every file and bundle read.
    const plan = planPlaced(placeSite(counted, OPTIONS));
    for (const job of plan.jobs) job.job();
    const files = plan.files.map((file) => [file.file, file.content()]);
    const docs = plan.search.shards.map((shard) => [shard.digest, shard.docs.map((d) => d.html)]);
    expect(files).toEqual(whole.files.map((file) => [file.file, file.content()]));
    expect(docs).toEqual(whole.search.shards.map((s) => [s.digest, s.docs.map((d) => d.html)]));
    expect(reads.size).toBe(model.postSource!.size);
    expect(Math.max(...reads.values())).toBe(1);
  }, 240_000);
});
