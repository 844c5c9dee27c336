import { describe, expect, it } from 'vitest';
import { planSite, type PlannedJob } from '../../../src/site/site-plan.js';
import type { PostEntry } from '../../../src/site/site-model.js';
import type { ListingJob, PageJob, PostJob } from '../../../src/site/template-data.js';
import { fixtureModel, makePost, SECRET_MARKER } from '../../helpers/fixture-model.js';

function byFile(jobs: readonly PlannedJob[]): Map<string, PlannedJob> {
  return new Map(jobs.map((job) => [job.file, job]));
}

function listings(jobs: readonly PlannedJob[]): ListingJob[] {
  return jobs
    .map((planned) => planned.job())
    .filter((job): job is ListingJob => job.kind === 'listing');
}

describe('planSite', () => {
  it('paginates the home with sticky posts first', () => {
    const plan = planSite(fixtureModel({ posts: 25 }), { postsPerPage: 10 });
    const pages = listings(plan.jobs);
    expect(pages.map((job) => job.sitePath)).toEqual(['/', '/page/2/', '/page/3/']);
    expect(pages.map((job) => job.posts.length)).toEqual([10, 10, 5]);
    expect(pages[0]?.posts[0]).toMatchObject({ sticky: true, title: 'Post 3 & <friends>' });
    // After the sticky post, newest first.
    const dates = pages.flatMap((job) =>
      job.posts.slice(job.pageNumber === 1 ? 1 : 0).map((card) => card.dateIso),
    );
    expect(dates).toEqual([...dates].sort().reverse());
    expect(pages[1]).toMatchObject({
      pageNumber: 2,
      totalPages: 3,
      newer: { href: '../../' },
      older: { href: '../3/' },
    });
    expect(pages[0]?.newer).toBeUndefined();
    expect(pages[2]?.older).toBeUndefined();
    expect(pages[0]?.posts[0]?.href).toBe('2024/04/post-3/');
    expect(pages[2]?.posts[0]?.href).toMatch(/^\.\.\/\.\.\/2024\//);
  });

  it('has one home page when there are no posts', () => {
    const model = { ...fixtureModel(), posts: [] };
    const pages = listings(planSite(model).jobs);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ sitePath: '/', totalPages: 1, posts: [] });
  });

  it('nests pages under their parents with breadcrumbs, children and a menu of top-level pages', () => {
    const jobs = byFile(planSite(fixtureModel()).jobs);
    const leaders = jobs.get('about/team/leaders/index.html')?.job() as PageJob;
    expect(leaders.breadcrumbs).toEqual([
      { title: 'About us', href: '../../' },
      { title: 'Our team', href: '../' },
    ]);
    const about = jobs.get('about/index.html')?.job() as PageJob;
    expect(about.children).toEqual([{ title: 'Our team', href: 'team/' }]);
    expect(about.nav).toEqual([
      { title: 'About us', href: './', current: true },
      { title: 'Contact', href: '../contact/', current: false },
    ]);
  });

  it('links a post to its neighbours and its counterpart, with hreflang alternates', () => {
    const plan = planSite(fixtureModel());
    const post = byFile(plan.jobs).get('2024/01/post-12/index.html')?.job() as PostJob;
    expect(post.root).toBe('../../../');
    expect(post.newer).toEqual({ title: 'Post 24 & <friends>', href: '../post-24/' });
    expect(post.older).toEqual({ title: 'Post 0 & <friends>', href: '../post-0/' });
    expect(post.switcher).toEqual([
      { lang: 'pl', label: 'Polski', hreflang: 'pl', href: './', current: true, counterpart: true },
      {
        lang: 'es',
        label: 'Español',
        hreflang: 'es',
        href: '../../../../es/2024/01/post-12/',
        current: false,
        counterpart: true,
      },
    ]);
    expect(post.alternates).toEqual([
      { hreflang: 'pl', href: 'https://example.test/pl/2024/01/post-12/' },
      { hreflang: 'es', href: 'https://example.test/es/2024/01/post-12/' },
    ]);
    const contact = byFile(plan.jobs).get('contact/index.html')?.job() as PageJob;
    // No counterpart: the switcher goes to the other home, and there are no alternates.
    expect(contact.switcher[1]).toMatchObject({ href: '../../es/', counterpart: false });
    expect(contact.alternates).toEqual([]);
  });

  it('leaves out every non-public entry, whatever the model builder gave', () => {
    const plan = planSite(fixtureModel());
    const text =
      JSON.stringify(plan.jobs) + plan.files.map((file) => String(file.content())).join('');
    expect(text).not.toContain(SECRET_MARKER);
    expect(plan.warnings).toContain('6 non-public post(s) were given to the build and left out.');
    expect(
      plan.search.shards
        .flatMap((shard) => shard.docs)
        .map((doc) => doc.title)
        .join(),
    ).not.toContain(SECRET_MARKER);
  });

  it('copies only the media public content uses', () => {
    const media = planSite(fixtureModel())
      .files.filter((file) => file.file.startsWith('media/'))
      .map((file) => file.file);
    expect(media.sort()).toEqual([
      'media/logo.png',
      'media/photo-0.png',
      'media/photo-1.png',
      'media/photo-2.png',
    ]);
  });

  it('leaves out entries with unsafe or colliding paths, with a warning each', () => {
    const model = fixtureModel({ posts: 3 });
    model.posts.push(
      makePost(50, { sitePath: '/../../etc/passwd/' }),
      makePost(51, { sitePath: '/%2e%2e/x/' }),
      makePost(52, { sitePath: `/${'a'.repeat(300)}/` }),
      makePost(53, { sitePath: '/page/2/' }),
      makePost(54, { sitePath: '/feed.xml/' }),
      makePost(55, { sitePath: '/pagefind/s0/' }),
      makePost(56, { sitePath: '/about/' }),
      makePost(57, { sitePath: '/media/photo-0.png/' }),
    );
    const plan = planSite(model, { postsPerPage: 2 });
    const files = plan.jobs.map((job) => job.file);
    expect(files.filter((file) => file.includes('etc') || file.includes('aaaa'))).toEqual([]);
    for (const id of [150, 151, 152, 153, 154, 155, 156, 157]) {
      expect(
        plan.warnings.some((warning) => warning.startsWith(`post ${id} left out`)),
        String(id),
      ).toBe(true);
    }
    // The page that was there first keeps its path; the listing keeps page/2/.
    expect((byFile(plan.jobs).get('about/index.html')?.job() as PageJob).kind).toBe('page');
    expect(byFile(plan.jobs).get('page/2/index.html')?.kind).toBe('listing');
    expect(new Set(files).size).toBe(files.length);
  });

  it('serves an item without a trailing slash as its directory', () => {
    const model = fixtureModel({ posts: 1 });
    model.posts = [makePost(0, { sitePath: '/2024/01/no-slash' })];
    expect(planSite(model).jobs.map((job) => job.file)).toContain('2024/01/no-slash/index.html');
  });

  it('changes the digests of exactly the outputs that show an edited post', () => {
    const model = fixtureModel({ posts: 25 });
    const before = byFile(planSite(model, { postsPerPage: 10 }).jobs);
    const edited = fixtureModel({ posts: 25 });
    const target = edited.posts.find((post) => post.id === 112)!;
    target.html = '<p>Edited body</p>';
    target.excerptHtml = '<p>Edited excerpt</p>';
    target.modifiedGmt = '2025-01-01T00:00:00';
    const after = planSite(edited, { postsPerPage: 10 });
    const changed = after.jobs
      .filter((job) => before.get(job.file)?.digest !== job.digest)
      .map((job) => job.file);
    const listingOf112 = listings(after.jobs).find((job) =>
      job.posts.some((card) => card.href.endsWith('post-12/')),
    );
    expect(changed.sort()).toEqual(
      [
        '2024/01/post-12/index.html',
        listingOf112 ? `${listingOf112.sitePath.slice(1)}index.html` : '',
      ].sort(),
    );
  });

  it("changes an edited post's own page digest for each field of the post alone", () => {
    // Each field changed on its own: the page's digest holds the post's digest (read when the
    // plan asks for it), not only what its neighbours and its listing show of it.
    const before = byFile(planSite(fixtureModel({ posts: 25 }), { postsPerPage: 10 }).jobs);
    const edits: [string, (post: PostEntry) => void][] = [
      ['title', (post) => void (post.title = 'Edited title')],
      ['modifiedGmt', (post) => void (post.modifiedGmt = '2025-01-01T00:00:00')],
      ['html', (post) => void (post.html = '<p>Edited body</p>')],
    ];
    for (const [field, edit] of edits) {
      const edited = fixtureModel({ posts: 25 });
      edit(edited.posts.find((post) => post.id === 112)!);
      const after = byFile(planSite(edited, { postsPerPage: 10 }).jobs);
      const file = '2024/01/post-12/index.html';
      expect(after.get(file)?.digest, field).toBeDefined();
      expect(after.get(file)?.digest, field).not.toBe(before.get(file)?.digest);
    }
  });

  it('changes every digest when the theme changes, none when nothing does', () => {
    const a = planSite(fixtureModel(), { templatesHash: 'a' });
    const again = planSite(fixtureModel(), { templatesHash: 'a' });
    const b = planSite(fixtureModel(), { templatesHash: 'b' });
    expect(again.modelDigest).toBe(a.modelDigest);
    expect(again.jobs.map((job) => job.digest)).toEqual(a.jobs.map((job) => job.digest));
    expect(b.jobs.every((job, index) => job.digest !== a.jobs[index]?.digest)).toBe(true);
  });
});
