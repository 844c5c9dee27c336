/**
 * Fuzz through the real cache and the real build: a thousand generated posts and pages with
 * hostile slugs, links, parents and content (several thousand HTML fragments), and hostile
 * oEmbed answers for every embeddable URL they hold, stored next to a real pull, then
 * `cms-mirror build`. It must not fail with an internal error, must write nothing outside
 * `output/{lang}/`, and no page may hold a dangerous-scheme URL or anything from a provider.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { DEFAULT_MAXWIDTH } from '../../../src/transform/index.js';
import { findEmbedUrls } from '../../../src/transform/html.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import type { ReferenceSite } from '../../helpers/reference.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import { findDanger, HostileInput } from '../../helpers/hostile-input.js';
import { listFiles } from '../../helpers/bad-input-harness.js';

const POSTS = 800;
const PAGES = 200;

describe('build fuzz', () => {
  let site: ReferenceSite;
  let temp: TempCache;

  const fixture = useSiteAndCache(
    { posts: 3, pages: 2, media: 1, languages: ['pl'] },
    'cms-mirror-build-fuzz-',
  );

  beforeEach(() => {
    ({ site, temp } = fixture);
  });

  it(`builds ${POSTS} posts and ${PAGES} pages of hostile input safely`, async () => {
    const pipeline = join(temp.dir, 'pipeline.yaml');
    writeFileSync(pipeline, 'http:\n  requestsPerSecond: 0\n');
    const pulled = await runCliCaptured(
      ['pull', '--pipeline', pipeline, '--site', site.url, '--lang', 'pl', '--cache', temp.file],
      { cwd: temp.dir },
    );
    expect(pulled.code, pulled.stderr).toBe(0);

    const input = new HostileInput(7_654_321);
    let fragments = 0;
    const embedUrls = new Set<string>();
    const store = openStore(temp.file);
    try {
      const template = JSON.parse(
        store.items.get('pl', 'posts', store.items.listIds('pl', 'posts')[0]!.id)!.json,
      ) as Record<string, unknown>;
      const make = (id: number, type: 'posts' | 'pages', pageIds: readonly number[]) => {
        const parts = Array.from({ length: 2 + input.int(4) }, () =>
          input.fragment(site.url, 'pl'),
        );
        fragments += parts.length;
        const content = parts.join('\n');
        for (const url of findEmbedUrls(content)) embedUrls.add(url);
        const slug = input.slug();
        return {
          ...template,
          id,
          type: type === 'posts' ? 'post' : 'page',
          slug,
          status: 'publish',
          link: input.link(site.url, 'pl'),
          title: { rendered: input.pick(['<script>alert(1)</script>', slug, '', '&lt;b&gt;']) },
          content: { rendered: content, protected: false },
          excerpt: { rendered: input.fragment(site.url, 'pl'), protected: false },
          parent: type === 'pages' ? input.pick([0, id, ...pageIds]) : 0,
          modified_gmt: `2024-0${1 + input.int(9)}-1${input.int(9)}T10:00:00`,
          date_gmt: `2024-0${1 + input.int(9)}-1${input.int(9)}T09:00:00`,
          featured_media: input.pick([0, 999_999]),
        };
      };
      const pageIds = Array.from({ length: PAGES }, (_, n) => 500_000 + n);
      store.items.upsertPage(
        'pl',
        'pages',
        pageIds.map((id) => make(id, 'pages', pageIds)),
      );
      for (let start = 0; start < POSTS; start += 100) {
        store.items.upsertPage(
          'pl',
          'posts',
          Array.from({ length: 100 }, (_, n) => make(600_000 + start + n, 'posts', [])),
        );
      }
      for (const url of embedUrls) {
        store.oembed.put(url, DEFAULT_MAXWIDTH, input.providerResponse(), null);
      }
    } finally {
      store.close();
    }
    expect(fragments).toBeGreaterThan(3000);
    expect(embedUrls.size).toBeGreaterThan(100);

    // Nested, so a file escaping by a few `..` still lands inside temp.dir where it is seen.
    const out = join(temp.dir, 'a', 'b', 'c', 'output');
    const built = await runCliCaptured(
      ['build', '--pipeline', pipeline, '--lang', 'pl', '--cache', temp.file, '--out', out],
      { cwd: temp.dir },
    );
    expect(built.stderr).not.toMatch(/internal error/);
    expect(built.code, built.stderr.slice(-2000)).toBe(0);

    const stray = listFiles(temp.dir)
      .map((file) => relative(temp.dir, file))
      .filter((file) => !/^cache\.sqlite(-wal|-shm)?$/.test(file) && file !== 'pipeline.yaml')
      .filter((file) => !file.startsWith(join('a', 'b', 'c', 'output', 'pl') + sep));
    // Besides output/pl/, the build writes only its own stamp of what it built (README).
    expect(stray).toEqual([join('a', 'b', 'c', 'output', '.cms-mirror', 'pl.stamp')]);

    const pages = listFiles(join(out, 'pl')).filter((file) => file.endsWith('.html'));
    // Most hostile items still get a page (unsafe paths are skipped, not the whole build).
    expect(pages.length).toBeGreaterThan((POSTS + PAGES) / 2);
    const problems: string[] = [];
    for (const file of pages) {
      const danger = findDanger(readFileSync(file, 'utf8')).filter(
        // The theme's own 404 page sets <base> so that it works at any depth.
        (what) => !(what === 'base' && file.endsWith(`${sep}404.html`)),
      );
      if (danger.length > 0) problems.push(`${relative(out, file)}: ${danger.join(', ')}`);
    }
    expect(problems.slice(0, 5)).toEqual([]);
    // Provider HTML was embedded (its safe part), so the sanitizer really was in the path.
    const embedded = pages.filter((file) =>
      /src="https:\/\/(?:www\.youtube\.com\/embed\/ok|player\.vimeo\.com\/video\/1)"/.test(
        readFileSync(file, 'utf8'),
      ),
    );
    expect(embedded.length).toBeGreaterThan(10);
  }, 60_000);
});
