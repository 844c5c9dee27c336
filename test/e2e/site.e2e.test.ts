/**
 * Issue 4, in a real browser: the built sites of both languages, served by the static server,
 * work as a visitor uses them. For each language: open the home, follow a post link, see the
 * post's images loaded, switch language through the switcher and land on the translation,
 * then find a post through the search box (Pagefind, loaded from the site's own files) and
 * follow the result. Chromium (found by test/helpers/find-browser.ts, driven by playwright-core)
 * runs headless offline.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStaticServer, type StaticServer } from '../../src/site/static-server.js';
import { startMirror, type Mirror } from '../helpers/e2e-site.js';
import { findChromium } from '../helpers/find-browser.js';

const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** What the test reads of an `<img>` in the page. */
interface ImageState {
  naturalWidth: number;
  currentSrc: string;
}

const OTHER: Record<string, string> = { pl: 'es', es: 'pl' };

describe('the built site in Chromium', () => {
  let mirror: Mirror;
  let server: StaticServer;
  let browser: Browser;

  beforeAll(async () => {
    // Found first: without a browser the suite fails at once, with one line saying how to get one.
    const found = await findChromium();
    mirror = await startMirror();
    await mirror.run();
    server = await startStaticServer(mirror.outDir);
    browser = await chromium.launch({
      executablePath: found.executablePath,
      args: [...LAUNCH_ARGS, ...found.args],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await mirror?.close();
  });

  /**
   * A page that records script errors and failed requests of the site's own files. Requests
   * beyond the static server (the embedded players of video posts) are aborted: tests never
   * reach the internet.
   */
  async function openPage(): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext();
    await context.route(
      (url) => url.origin !== server.url,
      (route) => route.abort('blockedbyclient'),
    );
    const page = await context.newPage();
    const problems: string[] = [];
    const own = (url: string): boolean => new URL(url).origin === server.url;
    page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    page.on('requestfailed', (request) => {
      if (own(request.url())) problems.push(`failed ${request.url()}`);
    });
    return { page, problems };
  }

  for (const lang of ['pl', 'es']) {
    it(`${lang}: home → post with its image → language switcher → search → result`, async () => {
      const { page, problems } = await openPage();
      try {
        await page.goto(`${server.url}/${lang}/`);
        expect(await page.getAttribute('html', 'lang')).toMatch(new RegExp(`^${lang}`));

        // Follow the first listed post whose page has a content image.
        const cards = page.locator('.post-list .card-title a');
        expect(await cards.count()).toBeGreaterThan(3);
        let opened = false;
        for (let index = 0; index < (await cards.count()) && !opened; index++) {
          const title = (await cards.nth(index).textContent())?.trim() ?? '';
          await cards.nth(index).click();
          await page.waitForLoadState('load');
          expect((await page.locator('main h1').textContent())?.trim()).toBe(title);
          if ((await page.locator('.entry-content img').count()) > 0) opened = true;
          else await page.goBack();
        }
        expect(opened).toBe(true);
        const postUrl = new URL(page.url());
        expect(postUrl.pathname).toMatch(new RegExp(`^/${lang}/\\d{4}/\\d{2}/`));
        // Every image of the post (featured and in the content) has loaded.
        const images = page.locator('main img');
        expect(await images.count()).toBeGreaterThan(0);
        // A string: the test's TypeScript has no DOM types; this runs in the page.
        await page.waitForFunction(
          "Array.from(document.querySelectorAll('main img')).every((image) => image.complete)",
        );
        const widths = await images.evaluateAll((nodes) =>
          nodes.map((node) => (node as unknown as ImageState).naturalWidth),
        );
        expect(widths.every((width) => width > 0)).toBe(true);
        for (const src of await images.evaluateAll((nodes) =>
          nodes.map((node) => (node as unknown as ImageState).currentSrc),
        ))
          expect(src.startsWith(`${server.url}/${lang}/media/`), src).toBe(true);

        // The switcher goes to the translation in the sibling folder.
        const other = OTHER[lang] as string;
        const alternate = await page.getAttribute(
          `link[rel="alternate"][hreflang^="${other}"]`,
          'href',
        );
        await page.click(`.language-switcher a[hreflang="${other}"]`);
        await page.waitForLoadState('load');
        const switched = new URL(page.url());
        expect(switched.pathname.startsWith(`/${other}/`)).toBe(true);
        expect(await page.getAttribute('html', 'lang')).toMatch(new RegExp(`^${other}`));
        if (alternate) {
          // The post has a translation: the switcher landed on it, not on the home.
          expect(switched.pathname).toBe(
            `/${other}${new URL(alternate).pathname.replace(/^\/[a-z]{2}/, '')}`,
          );
          expect(await page.locator('article.entry').count()).toBe(1);
        }

        // Back in this language, search for a word of a post title.
        await page.goto(`${server.url}/${lang}/`);
        const searched =
          (await page.locator('.post-list .card-title a').nth(2).textContent())?.trim() ?? '';
        const word = searched.split(/[\s:,.]+/).sort((a, b) => b.length - a.length)[0] as string;
        expect(word.length).toBeGreaterThan(3);
        await page.fill('#site-search', word);
        await page.press('#site-search', 'Enter');
        await page.waitForURL(/\/search\/\?q=/);
        const result = page.locator('.pagefind-ui__result-link', { hasText: searched });
        await result.first().waitFor({ timeout: 15_000 });
        await result.first().click();
        await page.waitForLoadState('load');
        expect(new URL(page.url()).pathname.startsWith(`/${lang}/`)).toBe(true);
        expect((await page.locator('main h1').textContent())?.trim()).toBe(searched);
        expect(problems).toEqual([]);
      } finally {
        await page.context().close();
      }
    });
  }
});
