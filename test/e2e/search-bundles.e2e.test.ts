/**
 * Issue 17, in a real browser: a site with more than 32 search bundles (1,000,000 posts have
 * 128) finds a post that lives in a bundle past the 32nd, so the search page merges every
 * bundle, not the first 32. A few hundred posts get 64 bundles through the build's
 * `searchMaxDocsPerShard`; the post looked for is read from the built bundle's own files.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStaticServer, type StaticServer } from '../../src/site/static-server.js';
import { findChromium } from '../helpers/find-browser.js';
import { fixtureModel } from '../helpers/fixture-model.js';
import { storedBuild } from '../helpers/site/stored-build.js';
import { useTempStore } from '../helpers/store/temp-store.js';

const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'];

/** The bundles of a built language, by number (`pagefind/s0` … `pagefind/s63`). */
function bundleNumbers(langDir: string): number[] {
  return fs
    .readdirSync(path.join(langDir, 'pagefind'))
    .filter((name) => /^s\d+$/.test(name))
    .map((name) => Number(name.slice(1)))
    .sort((a, b) => a - b);
}

/** The URL and title of one document of a bundle, as Pagefind wrote its fragment. */
function documentOf(bundleDir: string): { url: string; title: string } {
  const dir = path.join(bundleDir, 'fragment');
  const file = fs.readdirSync(dir).sort()[0] as string;
  // Pagefind's files are gzip with a 12-byte signature inside.
  const body = zlib.gunzipSync(fs.readFileSync(path.join(dir, file))).subarray(12);
  const fragment = JSON.parse(body.toString('utf8')) as { url: string; meta: { title: string } };
  return { url: fragment.url, title: fragment.meta.title };
}

describe('a search page over more than 32 bundles, in Chromium', () => {
  const cache = useTempStore();
  let tmp: string;
  let server: StaticServer | undefined;
  let browser: Browser;

  beforeAll(async () => {
    const found = await findChromium();
    browser = await chromium.launch({
      executablePath: found.executablePath,
      args: [...LAUNCH_ARGS, ...found.args],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-search-bundles-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  // 64 bundles indexed by Pagefind and merged in a browser: minutes on a loaded 2-core machine.
  it('finds a post of the last bundle, past the 32nd', { timeout: 300_000 }, async () => {
    const langDir = path.join(tmp, 'pl');
    // 300 posts at most 8 a bundle: 64 bundles (32 of 8 would not hold them).
    await storedBuild(cache.store, fixtureModel({ posts: 300 }), {
      outDir: langDir,
      searchDocsPerShard: 8,
      searchMaxDocsPerShard: 8,
    });
    const bundles = bundleNumbers(langDir);
    expect(bundles.length).toBeGreaterThan(32);
    const last = bundles.at(-1) as number;
    expect(last).toBeGreaterThanOrEqual(32);
    const wanted = documentOf(path.join(langDir, 'pagefind', `s${last}`));

    server = await startStaticServer(tmp);
    const context = await browser.newContext();
    try {
      await context.route(
        (url) => url.origin !== server!.url,
        (route) => route.abort('blockedbyclient'),
      );
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
      page.on('response', (response) => {
        if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
      });
      await page.goto(`${server.url}/pl/search/?q=${encodeURIComponent(wanted.title)}`);
      const result = page.locator(`a.pagefind-ui__result-link[href="/pl${wanted.url}"]`);
      await result.first().waitFor({ timeout: 120_000 });
      expect((await result.first().textContent())?.trim()).toBe(wanted.title);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
