import { spawn } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ReferenceSite } from '../../../src/reference/index.js';
import type { CmsClient } from '../../../src/client/index.js';
import { credentialEnv, migrateArgs } from '../../helpers/cli-args.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import { useSite, useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { mirrorLanguageInto, siteClient } from '../../helpers/push-site-fixture.js';

type Item = Record<string, unknown> & { id: number; slug: string; status: string; link: string };

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

/** Everything of one type on a site, all statuses, edit context. */
async function all(client: CmsClient, type: 'posts' | 'pages' | 'media'): Promise<Item[]> {
  const items: Item[] = [];
  const status = type === 'media' ? ['inherit', 'private'] : STATUSES;
  for await (const page of client.paginate<Item>(`cms/v2/${type}`, {
    per_page: 100,
    context: 'edit',
    status,
    orderby: 'id',
    order: 'asc',
  })) {
    items.push(...page.items);
  }
  return items;
}

const raw = (field: unknown): string =>
  (field as { raw?: string; rendered?: string }).raw ??
  (field as { rendered?: string }).rendered ??
  '';
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('migrate the seeded pl site into an empty second site', () => {
  let source: ReferenceSite;
  let target: ReferenceSite;
  let temp: TempCache;
  let env: NodeJS.ProcessEnv;

  const fixture = useSiteAndCache();
  const targetFixture = useSite({ posts: 0, pages: 0, media: 0, seed: 'target' });

  beforeEach(async () => {
    ({ site: source, temp } = fixture);
    target = targetFixture.site;
    env = credentialEnv(target);
    await mirrorLanguageInto(source, 'pl', temp.file, { media: true });
  });

  const args = () => migrateArgs(temp.file, target);
  const posts = (site: ReferenceSite) =>
    site.requests.filter((entry) => entry.method === 'POST' && entry.lang === 'pl');

  /** The content tree of a site, in terms that survive a migration (no ids, no hosts). */
  async function tree(site: ReferenceSite, auth: { user: string; password: string }) {
    const client = siteClient(site.url, 'pl', auth);
    try {
      const media = await all(client, 'media');
      const pages = await all(client, 'pages');
      const postItems = await all(client, 'posts');
      const mediaSlug = new Map(media.map((item) => [item.id, item.slug]));
      const pageSlug = new Map(pages.map((item) => [item.id, item.slug]));
      const bytes = new Map<string, string>();
      for (const item of media)
        bytes.set(item.slug, sha((await client.download(item.source_url as string)).data));
      const entry = (item: Item) => ({
        slug: item.slug,
        title: raw(item.title),
        status: item.status,
        featured: mediaSlug.get(item.featured_media as number) ?? null,
      });
      return {
        media: [...bytes].sort(),
        pages: pages
          .map((item) => ({ ...entry(item), parent: pageSlug.get(item.parent as number) ?? null }))
          .sort((a, b) => a.slug.localeCompare(b.slug)),
        posts: postItems.map(entry).sort((a, b) => a.slug.localeCompare(b.slug)),
        contents: [...pages, ...postItems].map((item) => raw(item.content)),
      };
    } finally {
      await client.close();
    }
  }

  it('dry run reads the target, prints the plan and creates nothing', async () => {
    const result = await runCliCaptured([...args(), '--dry-run'], { env, cwd: temp.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^create media \d+ /m);
    expect(result.stdout).toMatch(
      /^plan: create \d+ media, \d+ pages, \d+ posts; skip 0 already migrated; recover 0 found on the target; 0 conflict\(s\)$/m,
    );
    expect(posts(target)).toEqual([]);
  });

  it('re-creates the same tree, rewrites every source URL, and a second run creates nothing', async () => {
    const result = await runCliCaptured([...args(), '--json'], { env, cwd: temp.dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      created: Record<string, number>;
      failed: unknown[];
      seo: { indexing: { route: string; result: string }[]; siteRepresentation: string };
    };
    expect(report.failed).toEqual([]);
    const from = await tree(source, source.credentials);
    const to = await tree(target, target.credentials);
    expect(report.created).toEqual({
      media: from.media.length,
      pages: from.pages.length,
      posts: from.posts.length,
    });
    expect(to.media).toEqual(from.media);
    expect(to.pages).toEqual(from.pages);
    expect(to.posts).toEqual(from.posts);
    for (const content of to.contents) expect(content).not.toContain(source.url);
    expect(to.contents.join('\n')).toContain(target.url);
    expect(report.seo.siteRepresentation).toMatch(/^ok/);
    const representation = async (site: ReferenceSite) => {
      const client = siteClient(site.url, 'pl', site.credentials);
      try {
        type State = { data: { site_representation: Record<string, unknown> } };
        return (await client.get<State>('seo/v1/configuration/get_configuration_state')).data.data
          .site_representation;
      } finally {
        await client.close();
      }
    };
    const sourceRep = await representation(source);
    const targetRep = await representation(target);
    expect(targetRep.company_or_person).toBe(sourceRep.company_or_person);
    expect(targetRep.company_name).toBe(sourceRep.company_name);
    expect(String(targetRep.company_logo)).not.toContain(source.url);
    expect(report.seo.indexing.map((step) => step.route)).toEqual([
      'indexing/prepare',
      'indexing/posts',
      'indexing/terms',
      'indexing/post-type-archives',
      'indexing/general',
      'indexing/indexables-complete',
      'indexing/complete',
    ]);

    const postsBefore = posts(target).filter((entry) => !entry.path.startsWith('/seo/')).length;
    const second = await runCliCaptured([...args(), '--json'], { env, cwd: temp.dir });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).created).toEqual({ media: 0, pages: 0, posts: 0 });
    expect(posts(target).filter((entry) => !entry.path.startsWith('/seo/')).length).toBe(
      postsBefore,
    );
  });

  it('a SIGKILLed run, re-run, leaves no duplicates', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args()], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
    // Kill once the first post batch is on its way: media and pages are done, posts half.
    await new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const poll = setInterval(() => {
        const batches = posts(target).filter((entry) => entry.path === '/batch/v1').length;
        if (batches >= 2) {
          clearInterval(poll);
          child.kill('SIGKILL');
          resolve();
        } else if (Date.now() - started > 30_000 || child.exitCode !== null) {
          clearInterval(poll);
          reject(
            new Error(
              `the migration ended or stalled before it could be killed (exit ${child.exitCode})`,
            ),
          );
        }
      }, 2);
    });
    await new Promise((resolve) => child.once('exit', resolve));
    const rerun = await runCliCaptured([...args(), '--json'], { env, cwd: temp.dir });
    expect(rerun.code).toBe(0);
    // The kill came before the end: the re-run still had posts to create or to find again.
    const resumed = JSON.parse(rerun.stdout) as { created: { posts: number }; recovered: number };
    expect(resumed.created.posts + resumed.recovered).toBeGreaterThan(0);
    const from = await tree(source, source.credentials);
    const to = await tree(target, target.credentials);
    expect(to.media).toEqual(from.media);
    expect(to.pages).toEqual(from.pages);
    expect(to.posts).toEqual(from.posts);
  });

  it('finds items created by a run whose id_map rows were lost, and creates none twice', async () => {
    const pristine = `${temp.file}.before`;
    copyFileSync(temp.file, pristine);
    const first = await runCliCaptured([...args(), '--json'], { env, cwd: temp.dir });
    expect(first.code).toBe(0);
    const created = JSON.parse(first.stdout).created as Record<string, number>;
    // The cache as it was before the run: every create happened, no id_map row survived.
    for (const suffix of ['-wal', '-shm']) rmSync(`${temp.file}${suffix}`, { force: true });
    copyFileSync(pristine, temp.file);
    const before = posts(target).filter(
      (entry) => entry.path.startsWith('/cms/') || entry.path === '/batch/v1',
    ).length;
    const again = await runCliCaptured([...args(), '--json'], { env, cwd: temp.dir });
    expect(again.code).toBe(0);
    const report = JSON.parse(again.stdout) as {
      created: Record<string, number>;
      recovered: number;
    };
    expect(report.created).toEqual({ media: 0, pages: 0, posts: 0 });
    expect(report.recovered).toBe(created.media! + created.pages! + created.posts!);
    expect(
      posts(target).filter((entry) => entry.path.startsWith('/cms/') || entry.path === '/batch/v1')
        .length,
    ).toBe(before);
  });
});
