/**
 * One sample of `ab-render-worker.bench.ts`, run by plain node (no tsx in the measured
 * process): `node render-worker-probe.mjs DIST TEMPLATES` starts the render worker of the
 * compiled tree DIST as a build does (`worker-calls.js`, the render worker's young generation,
 * V8's heap growth as `heap-growth.js` sets it), has it run the theme once with no jobs (the
 * build's warm-up), then render and stage 6 posts. Prints one JSON line: ms from the start to
 * each answer.
 *
 * `node render-worker-probe.mjs DIST TEMPLATES edit COMPILED.json` renders the 6 posts with no
 * warm-up, as a one-edit `run` does, sending with the request the compiled templates that
 * COMPILED.json holds (as a build reads them from `nunjucks_compiles`), and adds to it those
 * the worker hands back: a second process renders with the first one's compiled code. A tree
 * whose worker neither takes nor hands back compiled code compiles the theme every time.
 * DELAY_MS (default 0) holds the request back that long after the worker starts, as a run's
 * main thread does while it plans; `warmMs` is then when it was sent, `requestToPagesMs` the
 * wait for the pages from there. PREPARE_MS, if given, has the worker asked that long after it
 * starts to prepare the pages' Eleventy run (`{ prepare: target }`, as an edit build asks at its
 * start); a worker that does not know the request fails it at once, and the probe goes on.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { setTimeout as later } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';

const [dist, templates, mode = 'warm', compiledFile, delayText = '0', prepareText = ''] =
  process.argv.slice(2);
if (mode !== 'warm' && (mode !== 'edit' || compiledFile === undefined))
  throw new Error(
    'usage: render-worker-probe.mjs DIST TEMPLATES [warm | edit COMPILED.json [DELAY_MS [PREPARE_MS]]]',
  );
const delay = Number(delayText);
const started = performance.now();
const load = (file) => import(pathToFileURL(path.join(dist, file)).href);
const { startWorkerCalls } = await load('worker-calls.js');
const { limitHeapGrowth, RENDER_YOUNG_GENERATION_MB } = await load('site/heap-growth.js');
limitHeapGrowth();
const worker = startWorkerCalls(pathToFileURL(path.join(dist, 'site/render-worker.js')), {
  resourceLimits: { maxYoungGenerationSizeMb: RENDER_YOUNG_GENERATION_MB },
});
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-worker-probe-'));

const post = (n) => ({
  kind: 'post',
  permalink: '',
  sitePath: `/p${n}/`,
  root: '../',
  title: `Post ${n}`,
  description: 'A post',
  canonical: `http://127.0.0.1/p${n}/`,
  alternates: [],
  switcher: [],
  nav: [],
  jsonLd: '{}',
  robots: '',
  baseHref: '',
  post: {
    id: n,
    title: `Post ${n}`,
    html: `<p>${'word '.repeat(300)}</p>`,
    dateIso: '2024-01-01T00:00:00Z',
    dateDisplay: '1 stycznia 2024',
    modifiedIso: '2024-01-01T00:00:00Z',
  },
});
const input = (jobs) => ({
  templatesDir: templates,
  global: {
    lang: 'pl',
    locale: 'pl',
    site: { name: 'Site', description: 'A site', publicUrl: 'http://127.0.0.1/' },
  },
  jobs,
  outDir,
  stage: {
    root: outDir,
    dir: path.join(outDir, 'stage'),
    files: jobs.map((_, index) => `p${index}/index.html`),
    previous: jobs.map(() => undefined),
  },
});

const readCompiled = () =>
  fs.existsSync(compiledFile)
    ? new Map(JSON.parse(fs.readFileSync(compiledFile, 'utf8')))
    : new Map();

try {
  const pages = input([1, 2, 3, 4, 5, 6].map(post));
  let warm = started;
  let stored = new Map();
  if (mode === 'warm') {
    await worker.call(input([]));
    warm = performance.now();
  } else {
    stored = readCompiled();
    pages.compiled = stored;
    if (prepareText !== '') {
      later(() => {
        worker.call({ prepare: { templatesDir: templates, outDir } }).catch(() => undefined);
      }, Number(prepareText));
    }
    // As in a run, where the request comes once the main thread has planned the pages.
    await sleep(delay);
    warm = performance.now();
  }
  const rendered = await worker.call(pages);
  const done = performance.now();
  if (rendered.pages.length !== 6) throw new Error(`${rendered.pages.length} pages rendered`);
  const compiled = rendered.compiled ?? new Map();
  if (mode === 'edit') {
    fs.writeFileSync(compiledFile, JSON.stringify([...stored, ...compiled]));
  }
  process.stdout.write(
    `${JSON.stringify({ warmMs: warm - started, renderedMs: done - started, requestToPagesMs: done - warm, stored: stored.size, compiled: compiled.size })}\n`,
  );
} finally {
  await worker.close();
  fs.rmSync(outDir, { recursive: true, force: true });
}
