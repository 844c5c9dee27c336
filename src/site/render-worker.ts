/**
 * Worker thread entry: renders jobs with Eleventy off the main thread. Eleventy's import
 * (about half a second) starts as soon as the worker does, so it overlaps whatever the main
 * thread does before the first render. The build queues its next chunk while one renders;
 * chunks render one after the other, in order.
 */
import { renderJobs } from './eleventy-renderer.js';
import { serveCalls } from '../worker-calls.js';
import { oneAtATime } from './one-at-a-time.js';

// Warm-up only: a failed import surfaces again, with its message, at the first render.
import('@11ty/eleventy').catch(() => undefined);

serveCalls(oneAtATime(renderJobs));
