import { describe, expect, it } from 'vitest';
import { changedAt, ChangeQueue } from '../../../src/watch/change-queue.js';

describe('ChangeQueue', () => {
  it('by default sends a burst of saves 50 ms apart as one batch, soon after the last', () => {
    const queue = new ChangeQueue();
    const saves = [0, 50, 100, 150];
    for (const [index, at] of saves.entries()) {
      queue.add(`f${index}.html`, 'content', at);
      // The watch's timer asks at the due time: nothing is due before the next save comes.
      const next = saves[index + 1];
      if (next !== undefined) expect(queue.take(next - 1)).toBeUndefined();
    }
    const delay = queue.delay(150) as number;
    expect(delay).toBeGreaterThan(0);
    // Well under the 300 ms a save may take to its rebuilt page.
    expect(delay).toBeLessThanOrEqual(100);
    expect(queue.take(150 + delay)?.files).toEqual(['f0.html', 'f1.html', 'f2.html', 'f3.html']);
  });

  it('is due a debounce after the last change, with each file once in first-seen order', () => {
    const queue = new ChangeQueue({ debounceMs: 300, maxWaitMs: 2000 });
    expect(queue.delay(0)).toBeUndefined();
    queue.add('a.html', 'content', 1000);
    queue.add('b.html', 'content', 1100);
    queue.add('a.html', 'content', 1200);
    expect(queue.delay(1200)).toBe(300);
    expect(queue.take(1499)).toBeUndefined();
    expect(queue.take(1500)).toEqual({
      files: ['b.html', 'a.html'],
      removed: [],
      templates: false,
    });
    expect(queue.pending).toBe(false);
  });

  it('caps the wait at maxWaitMs while changes keep coming', () => {
    const queue = new ChangeQueue({ debounceMs: 300, maxWaitMs: 1000 });
    for (let t = 0; t <= 900; t += 100) queue.add(`f${t}`, 'content', t);
    expect(queue.delay(900)).toBe(100);
    expect(queue.take(1000)?.files).toHaveLength(10);
  });

  it('holds changes made during a running batch until it is done', () => {
    const queue = new ChangeQueue({ debounceMs: 100, maxWaitMs: 1000 });
    queue.add('a', 'content', 0);
    expect(queue.take(100)).toBeDefined();
    queue.add('b', 'content', 150);
    queue.add('tpl/base.njk', 'template', 160);
    expect(queue.running).toBe(true);
    expect(queue.delay(5000)).toBeUndefined();
    expect(queue.take(5000)).toBeUndefined();
    queue.done(5000);
    expect(queue.delay(5000)).toBe(100);
    expect(queue.take(5100)).toEqual({ files: ['b'], removed: [], templates: true });
    queue.done(5200);
    expect(queue.delay(5200)).toBeUndefined();
  });

  it('keeps removals apart and a re-save after a removal counts as a change', () => {
    const queue = new ChangeQueue({ debounceMs: 0 });
    queue.add('a', 'content', 0, 'remove');
    queue.add('b', 'content', 0, 'remove');
    queue.add('b', 'content', 1);
    expect(queue.take(1)).toEqual({ files: ['b'], removed: ['a'], templates: false });
  });

  it('rejects negative or non-numeric options', () => {
    expect(() => new ChangeQueue({ debounceMs: -1 })).toThrow(
      /debounceMs must be a number of milliseconds ≥ 0, got -1/,
    );
    expect(() => new ChangeQueue({ maxWaitMs: Number.NaN })).toThrow(RangeError);
  });

  it('counts the quiet time from when the file was written, not from when it was reported', () => {
    const queue = new ChangeQueue({ debounceMs: 80 });
    // Written at 1000, reported at 1045 once still: due at 1080, not at 1125.
    queue.add('a.html', 'content', changedAt(1045, 1000, 50));
    expect(queue.delay(1045)).toBe(35);
    // A file reported later but written earlier than the last does not move the due time back.
    queue.add('b.html', 'content', changedAt(1048, 1030, 50));
    queue.add('c.html', 'content', changedAt(1050, 1010, 50));
    expect(queue.delay(1050)).toBe(60);
    expect(queue.take(1109)).toBeUndefined();
    expect(queue.take(1110)?.files).toEqual(['a.html', 'b.html', 'c.html']);
  });
});

describe('changedAt', () => {
  it('is the modification time, but never after the report nor more than settleMs before it', () => {
    expect(changedAt(1045, 1000, 50)).toBe(1000);
    // An mtime set by hand (a copy keeping times, or a clock ahead): bounded to the report.
    expect(changedAt(1045, 5, 50)).toBe(995);
    expect(changedAt(1045, 2000, 50)).toBe(1045);
    // No mtime (a removal) or a useless one: the report's time.
    expect(changedAt(1045, undefined, 50)).toBe(1045);
    expect(changedAt(1045, Number.NaN, 50)).toBe(1045);
  });
});
