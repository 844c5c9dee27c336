/**
 * Worker thread entry: builds search bundles. The worker drives a Pagefind process of its own
 * (`pagefind-service.ts`), started with the thread, so that the process's start overlaps the
 * main thread's work before the first bundle. One Pagefind process indexes one bundle at a
 * time, whatever it is sent.
 */
import { serveCalls } from '../worker-calls.js';
import { answerShardRequest, type ShardRequest } from './search-index.js';
import { startPagefind } from './pagefind-service.js';

// A failure to start is reported by each request, as the build's own error.
const { pagefind, failure } = startPagefind();

// Stopped before the thread ends: only this thread collects the process's exit status, so an
// unwaited process would linger as a zombie (many of them in a long `watch`).
serveCalls(
  async (request: ShardRequest) => {
    if (pagefind === undefined) throw failure;
    return answerShardRequest(request, pagefind);
  },
  async () => pagefind?.close(),
);
