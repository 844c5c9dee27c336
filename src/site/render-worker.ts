/**
 * Worker thread entry: renders jobs with Eleventy off the main thread and stages their pages
 * (`page-staging.ts`). Eleventy's import
 * (about half a second) starts as soon as the worker does, so it overlaps whatever the main
 * thread does before the first render. The build queues its next chunk while one renders;
 * chunks render one after the other, in order. Before an edit build's one chunk, the build asks
 * for that chunk's Eleventy run to be started (`JobRenderer.prepare`), so that the chunk's
 * request finds most of the run done.
 */
import { renderAndStage, type RenderWorkerRequest } from './page-staging.js';
import { serveCalls } from '../worker-calls.js';
import { oneAtATime } from './one-at-a-time.js';
import { jobRenderer } from './eleventy-renderer.js';
import { warmDateFormats } from './date-formats-warm-up.js';

// Eleventy registers a module resolve hook, which on Node 20 starts a thread of its own and
// routes every later import through it, blocking this thread while it starts (~0.7 s of a
// full build). The hook only busts the import cache of files Eleventy's own watcher saw
// change; this build never runs that watcher, so the hook would never act. This thread's
// environment is its own copy: nothing else sees the variable.
process.env['ELEVENTY_SKIP_ESM_RESOLVER'] = '1';

// Warm-up only: a failed import surfaces again, with its message, at the first render. In the
// built package this thread is one bundled file with Eleventy inside
// (scripts/bundle-render-worker.mjs): the import evaluates the bundled modules; the variable
// above is set before they run.
import('@11ty/eleventy').catch(() => undefined);

// One renderer for the thread's life: it keeps Nunjucks' compiled templates between chunks.
const renderer = jobRenderer();
serveCalls(
  oneAtATime(async (request: RenderWorkerRequest) => {
    if (!('prepare' in request)) return renderAndStage(request, renderer.render);
    // Answered at once: the run goes on while this thread waits for the pages' request.
    void renderer.prepare(request.prepare);
    return null;
  }),
);

// This thread starts at the pull's first change, ~0.3 s before an edit build's main thread
// plans its pages and formats their dates: loading ICU's tables here spares that thread.
warmDateFormats();
