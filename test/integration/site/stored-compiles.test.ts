/**
 * Nunjucks' compiled templates kept in the cache file between runs (`nunjucks_compiles`): a
 * run's render worker starts with an empty compile cache, and a one-edit run compiled the
 * theme's layouts and includes again for its few pages. What must hold: after a run, a build
 * on a fresh render worker (as the next process has) compiles nothing when the theme is the
 * same, and a template whose text changed is compiled again, its pages showing the change,
 * not the code kept for its old text. Counted from what the worker hands back with each
 * render: the code it compiled itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageFileOf, sitePathOfLink, startMirror, type Mirror } from '../../helpers/e2e-site.js';
import { getJson, type Json } from '../../helpers/reference.js';
import { build, pull } from '../../../src/index.js';
import { startBuildWorkers, type BuildWorkers } from '../../../src/site/build-workers.js';
import { openStore } from '../../../src/store/index.js';
import { nunjucksCompiler } from '../../../src/site/stored-compiles.js';

const THEME = path.resolve(import.meta.dirname, '../../../templates');

describe('compiled templates kept between runs', () => {
  let mirror: Mirror;
  let post: { id: number; link: string };
  /** A copy of the default theme, edited in place by a test: its templates keep their names. */
  let theme: string;

  beforeAll(async () => {
    mirror = await startMirror({ reference: { posts: 20 }, languages: ['pl'] });
    theme = path.join(mirror.temp.dir, 'theme');
    fs.cpSync(THEME, theme, { recursive: true });
    await mirror.run(['--templates', theme]);
    const listed = await getJson(mirror.site, 'pl', '/cms/v2/posts', { query: { per_page: 20 } });
    const open = (listed.body as Json[]).find((item) => !item.content.protected);
    post = { id: open?.id as number, link: open?.link as string };
    expect(post.id).toBeGreaterThan(0);
  }, 300_000);
  afterAll(async () => {
    await mirror?.close();
  });

  /**
   * A pull and a build on a fresh render worker that records how many templates it compiled
   * for each render request.
   */
  async function pullAndBuild(): Promise<{ plan?: string; compiled: number[] }> {
    const settings = { ...mirror.settings(), templates: theme };
    const pulled = await pull({ settings });
    const workers = startBuildWorkers();
    const compiled: number[] = [];
    const recording: BuildWorkers = {
      ...workers,
      render: async (input) => {
        const result = await workers.render(input);
        compiled.push(result.compiled?.size ?? -1);
        return result;
      },
      close: () => Promise.resolve(),
    };
    try {
      const summary = await build({ settings, changed: pulled.changed, workers: () => recording });
      const pl = summary.languages['pl'] as { plan?: string } | undefined;
      return { ...(pl?.plan !== undefined ? { plan: pl.plan } : {}), compiled };
    } finally {
      await workers.close();
    }
  }

  /** The compiled templates the cache file holds for the installed compiler. */
  function keptRows(): number {
    const store = openStore(mirror.cacheFile);
    try {
      return store.nunjucksCompiles.read(nunjucksCompiler() as string).size;
    } finally {
      store.close();
    }
  }

  it('are kept by a run, and a later build on a fresh worker compiles none of them', async () => {
    expect(keptRows()).toBeGreaterThan(0);
    mirror.site.control.updateItem('pl', 'posts', post.id, { title: 'Tytuł bez kompilacji' });
    const built = await pullAndBuild();
    expect(built.plan).toBe('edits');
    expect(built.compiled.length).toBeGreaterThan(0);
    expect(built.compiled.every((count) => count === 0)).toBe(true);
    const page = fs.readFileSync(postFile(), 'utf8');
    expect(page).toContain('Tytuł bez kompilacji');
  }, 300_000);

  it('are not used for a template whose text changed', async () => {
    const include = path.join(theme, '_includes/pages/post.njk');
    const text = fs.readFileSync(include, 'utf8');
    expect(text).toContain('<article class="entry">');
    fs.writeFileSync(
      include,
      text.replace('<article class="entry">', '<article class="entry"><!-- changed theme -->'),
    );
    mirror.site.control.updateItem('pl', 'posts', post.id, { title: 'Tytuł w nowym motywie' });
    const built = await pullAndBuild();
    expect(built.compiled.some((count) => count > 0)).toBe(true);
    const page = fs.readFileSync(postFile(), 'utf8');
    expect(page).toContain('Tytuł w nowym motywie');
    expect(page).toContain('<!-- changed theme -->');
  }, 300_000);

  function postFile(): string {
    const sitePath = sitePathOfLink(mirror.site, 'pl', post.link);
    return path.join(mirror.outDir, 'pl', pageFileOf(sitePath));
  }
});
