/**
 * The render worker's renderer starts its next Eleventy run before the pages come
 * (`JobRenderer.prepare`): the pages it then renders are those a run started with them renders;
 * a theme changed after the prepared run walked it is rendered as it is at the request, and a
 * request for another output directory is not answered from the prepared run. The oracle is a
 * tiny theme whose pages print what the test expects, written out here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobRenderer } from '../../../src/site/eleventy-renderer.js';
import { postsInput, tinyTheme } from '../../helpers/tiny-theme.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-job-renderer-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A theme whose post page prints the language and the job's title, and one page of its own. */
const theme = (): string =>
  tinyTheme(tmp, '{{ cms.lang }}:{{ job.title }}', {
    'robots.njk': '---\npermalink: /robots.txt\n---\nlang {{ cms.lang }}',
  });

describe('jobRenderer', () => {
  it('renders from a prepared run the pages a run started with them renders', async () => {
    const dir = theme();
    const out = path.join(tmp, 'out', 'pl');
    const fresh = await jobRenderer().render(postsInput(dir, out, ['a', 'b']));
    const renderer = jobRenderer();
    await renderer.prepare({ templatesDir: dir, outDir: out });
    const prepared = await renderer.render(postsInput(dir, out, ['a', 'b']));
    expect(fresh.pages).toEqual(['pl:a', 'pl:b']);
    expect(prepared.pages).toEqual(fresh.pages);
    expect([...prepared.extras]).toEqual([['robots.txt', 'lang pl']]);
    // The next request has no prepared run: it starts its own.
    expect((await renderer.render(postsInput(dir, out, ['c']))).pages).toEqual(['pl:c']);
  });

  it('renders a template added after the prepared run walked the theme', async () => {
    const dir = theme();
    const out = path.join(tmp, 'out', 'pl');
    const renderer = jobRenderer();
    await renderer.prepare({ templatesDir: dir, outDir: out });
    fs.writeFileSync(path.join(dir, 'humans.njk'), '---\npermalink: /humans.txt\n---\nadded');
    const result = await renderer.render(postsInput(dir, out, ['a']));
    expect(result.pages).toEqual(['pl:a']);
    expect(result.extras.get('humans.txt')).toBe('added');
  });

  it('answers a request for another output directory with a run of its own', async () => {
    const dir = theme();
    const renderer = jobRenderer();
    await renderer.prepare({ templatesDir: dir, outDir: path.join(tmp, 'out', 'es') });
    const result = await renderer.render(postsInput(dir, path.join(tmp, 'out', 'pl'), ['a']));
    expect(result.pages).toEqual(['pl:a']);
    expect([...result.extras]).toEqual([['robots.txt', 'lang pl']]);
    expect(result.warnings).toEqual([]);
  });
});
