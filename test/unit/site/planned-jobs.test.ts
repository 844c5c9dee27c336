/**
 * Issue 17: a plan's pages are made as the list is walked (`planned-jobs.ts`), and the render
 * takes them a chunk at a time. Walking must give every page once, in the plan's order, with
 * the digest it was planned with; the model digest must be the XOR of every output's digest
 * (computed here from sha256 itself); and the renderer must not take the jobs ahead of need.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderInChunks } from '../../../src/site/chunked-render.js';
import type { StagedRenderInput, StagedRenderResult } from '../../../src/site/page-staging.js';
import { DigestColumn } from '../../../src/site/planned-jobs.js';
import { placeSite, planPlaced, type PlannedJob } from '../../../src/site/site-plan.js';
import type { Job } from '../../../src/site/template-data.js';
import { fixtureModel } from '../../helpers/fixture-model.js';

/** The first 16 bytes of sha256 over the parts, each ended by a NUL (as digests are made). */
function shortDigest(...parts: string[]): string {
  return createHash('sha256')
    .update(parts.map((part) => `${part}\u0000`).join(''))
    .digest('hex')
    .slice(0, 32);
}

function xor(digests: Iterable<string>): string {
  const bytes = Buffer.alloc(16);
  for (const digest of digests) {
    const other = Buffer.from(digest, 'hex');
    for (let at = 0; at < 16; at++) bytes[at] = (bytes[at] as number) ^ (other[at] as number);
  }
  return bytes.toString('hex');
}

describe('a plan walked a job at a time', () => {
  const model = fixtureModel({ posts: 57 });
  const OPTIONS = { postsPerPage: 4, searchDocsPerShard: 10 };

  it('gives every page once, in order, the same on every walk, each job made anew', () => {
    const plan = planPlaced(placeSite(model, OPTIONS));
    const first = [...plan.jobs];
    const second = [...plan.jobs];
    expect(first.length).toBe(plan.jobs.length);
    const listed = (jobs: PlannedJob[]) => jobs.map((job) => [job.kind, job.file, job.digest]);
    expect(listed(second)).toEqual(listed(first));
    expect(new Set(first.map((job) => job.file)).size).toBe(first.length);
    // The listing pages by number, then the posts newest first, as the model holds them.
    const listings = first.filter((job) => job.kind === 'listing').map((job) => job.file);
    expect(listings).toEqual(
      Array.from({ length: 15 }, (_, at) =>
        at === 0 ? 'index.html' : `page/${at + 1}/index.html`,
      ),
    );
    const posts = first.filter((job) => job.kind === 'post');
    expect(posts.map((job) => (job.job() as { post: { id: number } }).post.id)).toEqual(
      model.posts
        .filter((post) => post.status === 'publish' && !post.protected)
        .map((post) => post.id),
    );
    // Not held: a walk makes the post jobs again.
    const again = second.filter((job) => job.kind === 'post');
    expect(again[0]).not.toBe(posts[0]);
    expect(again[0]?.job()).toEqual(posts[0]?.job());
  });

  it('digests the model from every page, file and search bundle', () => {
    const plan = planPlaced(placeSite(model, OPTIONS));
    const expected = xor([
      ...Array.from(plan.jobs, (job) => job.digest),
      ...plan.files.map((file) => shortDigest(file.file, file.input)),
      ...plan.search.shards.map((shard) => shortDigest(shard.dir, shard.digest)),
    ]);
    expect(plan.modelDigest).toBe(expected);
  });

  it('keeps digests as bytes, read back alike, and refuses one that does not fit', () => {
    const column = new DigestColumn(2);
    const digests = [shortDigest('a'), shortDigest('b')];
    for (const digest of digests) column.push(digest);
    expect([column.get(0), column.get(1)]).toEqual(digests);
    expect(() => column.push(shortDigest('c'))).toThrow(/does not fit/);
    expect(() => new DigestColumn(1).push('abc')).toThrow(/does not fit/);
  });
});

describe('renderInChunks given jobs made as they are walked', () => {
  it('takes them a chunk at a time, only as far ahead as it renders', async () => {
    let taken = 0;
    function* jobs(): Generator<PlannedJob> {
      for (let index = 0; index < 23; index++) {
        taken++;
        const file = `p/${index}/index.html`;
        yield {
          kind: 'post',
          file,
          digest: String(index),
          job: () => ({ file }) as unknown as Job,
        };
      }
    }
    const render = (input: StagedRenderInput): Promise<StagedRenderResult> =>
      Promise.resolve({
        pages: input.stage.files.map((file) => ({ hash: file, bytes: 1, written: true })),
        extras: new Map(),
        warnings: [],
      });
    const stageOf = (chunk: readonly PlannedJob[]) => ({
      root: '/nowhere',
      dir: '/nowhere',
      files: chunk.map((planned) => planned.file),
      previous: chunk.map(() => undefined),
    });
    const base = {
      templatesDir: '/nowhere',
      global: {
        lang: 'pl',
        locale: 'pl',
        site: { name: '', description: '', publicUrl: 'http://x/' },
      },
      outDir: '/nowhere',
    };
    const sizes: number[] = [];
    const files: string[] = [];
    const takenAt: number[] = [];
    for await (const { jobs: chunk, result } of renderInChunks(render, base, jobs(), stageOf, 5)) {
      takenAt.push(taken);
      sizes.push(chunk.length);
      expect(result.pages.map((page) => page.hash)).toEqual(chunk.map((job) => job.file));
      files.push(...chunk.map((job) => job.file));
    }
    expect(sizes).toEqual([5, 5, 5, 5, 3]);
    expect(files).toEqual(Array.from({ length: 23 }, (_, index) => `p/${index}/index.html`));
    // Three chunks taken when the first is handed out (two ahead, one queued behind it).
    expect(takenAt[0]).toBe(15);
  });
});
