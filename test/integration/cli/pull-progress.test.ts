import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgressReporter } from '../../../src/cli/progress.js';
import type { PullEvent } from '../../../src/sync/index.js';

function sink(isTTY: boolean): Writable & { isTTY: boolean; columns: number; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      text += chunk.toString();
      callback();
    },
  }) as Writable & { isTTY: boolean; columns: number; text: () => string };
  stream.isTTY = isTTY;
  stream.columns = 100;
  stream.text = () => text;
  return stream;
}

const events: PullEvent[] = [
  { type: 'progress', lang: 'pl', collection: 'posts', phase: 'crawl', done: 0, total: undefined },
  { type: 'progress', lang: 'pl', collection: 'posts', phase: 'crawl', done: 100, total: 250 },
  { type: 'progress', lang: 'pl', collection: 'posts', phase: 'crawl', done: 200, total: 250 },
  { type: 'warning', lang: 'pl', message: 'posts: skipped a bad record (id 7): no modified_gmt' },
  { type: 'progress', lang: 'pl', collection: 'posts', phase: 'deletions', done: 250, total: 250 },
  { type: 'progress', lang: 'pl', collection: 'posts', phase: 'done', done: 0, total: undefined },
];

describe('pull progress on stderr', () => {
  it('prints one plain line per phase change (and every warning) when stderr is not a terminal', async () => {
    const stderr = sink(false);
    const reporter = await createProgressReporter(stderr);
    for (const event of events) reporter.onProgress(event);
    reporter.stop();
    expect(stderr.text().trim().split('\n')).toEqual([
      'pl/posts: crawl',
      'warning: pl: posts: skipped a bad record (id 7): no modified_gmt',
      'pl/posts: deletions',
      'pl/posts: done (200 items read)',
    ]);
  });

  it('draws a bar per language x collection on a terminal', async () => {
    const stderr = sink(true);
    const reporter = await createProgressReporter(stderr);
    for (const event of events) reporter.onProgress(event);
    reporter.onProgress({
      type: 'progress',
      lang: 'es',
      collection: 'media',
      phase: 'assets',
      done: 3,
      total: undefined,
    });
    reporter.stop();
    const text = stderr.text();
    expect(text).toContain('pl/posts');
    expect(text).toContain('es/media');
    expect(text).toMatch(/250\/250 done/);
    expect(text).toContain('warning: pl: posts: skipped a bad record');
  });
});
