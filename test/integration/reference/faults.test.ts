import { afterEach, describe, expect, it } from 'vitest';
import { isCmsMirrorError } from '../../../src/errors.js';
import { parseFaults } from '../../../src/reference/index.js';
import { apiUrl, authHeader, getJson, startReference } from '../../helpers/reference.js';
import type { ReferenceSite } from '../../helpers/reference.js';

let site: ReferenceSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe('parseFaults', () => {
  it('reads every key of the fault spec', () => {
    expect(parseFaults('latency=20ms,error=0.1,429=0.05,reset=0.02')).toEqual({
      latencyMs: 20,
      error: 0.1,
      tooManyRequests: 0.05,
      reset: 0.02,
    });
    expect(
      parseFaults('latency=5ms..40ms,truncate=0.01,slow=0.01,slowMs=2s,retryAfter=2,faultSeed=7'),
    ).toEqual({
      latencyMs: [5, 40],
      truncate: 0.01,
      slow: 0.01,
      slowMs: 2000,
      retryAfterSeconds: 2,
      seed: 7,
    });
    expect(parseFaults('batchCut=3')).toEqual({ batchCut: 3 });
    expect(parseFaults('')).toEqual({});
    expect(parseFaults('none')).toEqual({});
  });

  it('throws a UsageError naming the key on unknown keys and bad values', () => {
    const cases: [string, string][] = [
      ['jitter=0.1', 'jitter'],
      ['error=2', 'error'],
      ['429=x', '429'],
      ['latency=fast', 'latency'],
      ['latency=40ms..5ms', 'latency'],
      ['retryAfter=-1', 'retryAfter'],
      ['faultSeed=1.5', 'faultSeed'],
      ['batchCut=-1', 'batchCut'],
      ['error', 'error'],
      ['error=0.6,reset=0.6', 'more than 1'],
    ];
    for (const [spec, named] of cases) {
      let caught: unknown;
      try {
        parseFaults(spec);
      } catch (error) {
        caught = error;
      }
      expect(isCmsMirrorError(caught), spec).toBe(true);
      expect((caught as { code: string }).code).toBe('E_USAGE');
      expect((caught as Error).message, spec).toContain(named);
    }
  });
});

describe('injected faults', () => {
  it('answers 500 with a JSON error body', async () => {
    site = await startReference({ faults: 'error=1' });
    const response = await getJson(site, 'pl', '/cms/v2/posts');
    expect(response.status).toBe(500);
    expect(response.body).toMatchObject({ code: 'internal_server_error', data: { status: 500 } });
  });

  it('answers 429 with Retry-After (1 by default, or as configured)', async () => {
    site = await startReference({ faults: '429=1' });
    const first = await getJson(site, 'pl', '/cms/v2/posts');
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('1');
    site.control.setFaults('429=1,retryAfter=2');
    expect((await getJson(site, 'pl', '/cms/v2/posts')).headers.get('retry-after')).toBe('2');
    site.control.setFaults(undefined);
    expect((await getJson(site, 'pl', '/cms/v2/posts')).status).toBe(200);
    expect(() => site?.control.setFaults('bogus=1')).toThrow(/bogus/);
  });

  it('drops the connection without an answer', async () => {
    site = await startReference({ faults: 'reset=1' });
    await expect(fetch(apiUrl(site, 'pl', '/cms/v2/posts'))).rejects.toThrow();
    expect(site.requests.at(-1)?.status).toBe(0);
  });

  it('cuts a JSON body while keeping the status', async () => {
    site = await startReference({ faults: 'truncate=1' });
    const response = await fetch(apiUrl(site, 'pl', '/cms/v2/posts'));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.length).toBeGreaterThan(10);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('applies to media files too', async () => {
    site = await startReference();
    const [media] = (
      await getJson(site, 'pl', '/cms/v2/media', { query: { per_page: 1, media_type: 'image' } })
    ).body;
    site.control.setFaults('error=1');
    expect((await fetch(media.source_url)).status).toBe(500);
    site.control.setFaults('truncate=1');
    await expect(fetch(media.source_url).then((r) => r.arrayBuffer())).rejects.toThrow();
  });

  it('hangs slow requests, and close() does not wait for them', async () => {
    site = await startReference({ faults: 'slow=1,slowMs=60000' });
    const aborted = fetch(apiUrl(site, 'pl', '/'), { signal: AbortSignal.timeout(300) });
    await expect(aborted).rejects.toThrow();
    const pending = fetch(apiUrl(site, 'pl', '/')).catch(() => 'closed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await site.close();
    expect(await pending).toBe('closed');
  });

  it('draws faults from a seeded RNG: the same seed gives the same sequence', async () => {
    const sequence = async (seed: number): Promise<number[]> => {
      const own = await startReference({
        posts: 2,
        pages: 0,
        media: 0,
        faults: `error=0.3,429=0.3,faultSeed=${seed}`,
      });
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await getJson(own, 'pl', '/')).status);
      await own.close();
      return statuses;
    };
    const a = await sequence(7);
    expect(await sequence(7)).toEqual(a);
    expect(new Set(a)).toEqual(new Set([200, 429, 500]));
    expect(await sequence(8)).not.toEqual(a);
  });

  it('cuts a batch: its first sub-requests are carried out, the answer never comes', async () => {
    site = await startReference({ languages: ['pl'], posts: 0, faults: 'batchCut=2' });
    const requests = ['one', 'two', 'three', 'four'].map((title) => ({
      method: 'POST',
      path: '/cms/v2/posts',
      body: { title, status: 'draft' },
    }));
    const batch = () =>
      fetch(apiUrl(site!, 'pl', '/batch/v1'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...authHeader(site!, true) },
        body: JSON.stringify({ requests }),
      });
    await expect(batch()).rejects.toThrow();
    expect(site.requests.at(-1)?.status).toBe(0);
    const titles = () =>
      site!.control
        .listItems('pl', 'posts')
        .map((item) => item.title)
        .sort();
    expect(titles()).toEqual(['one', 'two']);
    // Other requests are answered as usual; without the fault the batch runs whole.
    expect((await getJson(site, 'pl', '/cms/v2/posts')).status).toBe(200);
    site.control.setFaults(undefined);
    expect((await batch()).status).toBe(207);
    expect(titles()).toEqual(['four', 'one', 'one', 'three', 'two', 'two']);
  });

  it('adds latency but still answers', async () => {
    site = await startReference({ faults: { latencyMs: [1, 5] } });
    expect((await getJson(site, 'es', '/cms/v2/pages')).status).toBe(200);
  });
});
