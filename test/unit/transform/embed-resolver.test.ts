import { describe, expect, it } from 'vitest';
import {
  resolveEmbeds,
  type CachedEmbed,
  type EmbedCache,
} from '../../../src/transform/embed-resolver.js';
import {
  parseOEmbedResponse,
  type OEmbedResponse,
} from '../../../src/transform/oembed-response.js';

const NOW = new Date('2024-03-01T12:00:00Z');
const A = 'https://www.youtube.com/watch?v=a';
const B = 'https://vimeo.com/2';

/** An in-memory cache with the store's contract: put computes expiresAt from now + ttl. */
function memoryCache(now: () => Date) {
  const entries = new Map<string, CachedEmbed>();
  const puts: Array<{
    url: string;
    maxwidth: number;
    response: OEmbedResponse | null;
    ttl: number;
  }> = [];
  const cache: EmbedCache = {
    get: (url, maxwidth) => entries.get(`${maxwidth} ${url}`),
    put: (url, maxwidth, response, ttl) => {
      puts.push({ url, maxwidth, response, ttl });
      entries.set(`${maxwidth} ${url}`, { response, expiresAt: now().getTime() + ttl * 1000 });
    },
  };
  return { cache, entries, puts };
}

function fetcher(answers: Record<string, unknown>) {
  const calls: Array<[string, number]> = [];
  const fetchOEmbed = async (url: string, maxwidth: number): Promise<OEmbedResponse | null> => {
    calls.push([url, maxwidth]);
    const answer = answers[url];
    if (answer instanceof Error) throw answer;
    return (answer ?? null) as OEmbedResponse | null;
  };
  return { fetchOEmbed, calls };
}

describe('resolveEmbeds', () => {
  it('fetches each distinct URL once with maxwidth and caches with the default TTL', async () => {
    const { cache, puts } = memoryCache(() => NOW);
    const { fetchOEmbed, calls } = fetcher({ [A]: { type: 'video', html: '<iframe></iframe>' } });
    const result = await resolveEmbeds(
      [A, B, A],
      { fetchOEmbed, cache, now: () => NOW },
      { maxwidth: 800 },
    );
    expect(calls).toEqual([
      [A, 800],
      [B, 800],
    ]);
    expect(result).toEqual(
      new Map([
        [A, { type: 'video', html: '<iframe></iframe>' }],
        [B, null],
      ]),
    );
    expect(puts).toEqual([
      {
        url: A,
        maxwidth: 800,
        response: { type: 'video', html: '<iframe></iframe>' },
        ttl: 86_400,
      },
      { url: B, maxwidth: 800, response: null, ttl: 3_600 },
    ]);
  });

  it('uses maxwidth 600 by default', async () => {
    const { cache } = memoryCache(() => NOW);
    const { fetchOEmbed, calls } = fetcher({});
    await resolveEmbeds([A], { fetchOEmbed, cache, now: () => NOW });
    expect(calls).toEqual([[A, 600]]);
  });

  it('answers from a fresh cache entry without fetching', async () => {
    const { cache, entries } = memoryCache(() => NOW);
    entries.set(`600 ${A}`, {
      response: { type: 'rich', html: '<p>cached</p>' },
      expiresAt: NOW.getTime() + 1000,
    });
    entries.set(`600 ${B}`, {
      response: null,
      expiresAt: new Date(NOW.getTime() + 1000).toISOString(),
    });
    const { fetchOEmbed, calls } = fetcher({ [A]: { type: 'rich', html: '<p>fresh</p>' } });
    const result = await resolveEmbeds([A, B], { fetchOEmbed, cache, now: () => NOW });
    expect(calls).toEqual([]);
    expect(result.get(A)).toEqual({ type: 'rich', html: '<p>cached</p>' });
    expect(result.get(B)).toBeNull();
  });

  it('refetches expired entries (and unreadable expiry dates)', async () => {
    const { cache, entries } = memoryCache(() => NOW);
    entries.set(`600 ${A}`, {
      response: { type: 'rich', html: 'old' },
      expiresAt: new Date(NOW.getTime()),
    });
    entries.set(`600 ${B}`, { response: null, expiresAt: 'not a date' });
    const { fetchOEmbed, calls } = fetcher({ [A]: { type: 'rich', html: 'new' } });
    const result = await resolveEmbeds([A, B], { fetchOEmbed, cache, now: () => NOW });
    expect(calls.map(([url]) => url)).toEqual([A, B]);
    expect(result.get(A)).toEqual({ type: 'rich', html: 'new' });
  });

  it('honours cache_age, capped at the maximum TTL', async () => {
    const { cache, puts } = memoryCache(() => NOW);
    const { fetchOEmbed } = fetcher({
      [A]: { type: 'rich', html: 'x', cache_age: '120' },
      [B]: { type: 'rich', html: 'y', cache_age: 10 ** 12 },
    });
    await resolveEmbeds([A, B], { fetchOEmbed, cache, now: () => NOW }, { maxTtlSeconds: 1000 });
    expect(puts.map((put) => put.ttl)).toEqual([120, 1000]);
  });

  it('expires a cache_age entry at the right time', async () => {
    let now = NOW;
    const { cache } = memoryCache(() => now);
    const { fetchOEmbed, calls } = fetcher({ [A]: { type: 'rich', html: 'x', cache_age: 60 } });
    await resolveEmbeds([A], { fetchOEmbed, cache, now: () => now });
    now = new Date(NOW.getTime() + 59_000);
    await resolveEmbeds([A], { fetchOEmbed, cache, now: () => now });
    expect(calls).toHaveLength(1);
    now = new Date(NOW.getTime() + 60_000);
    await resolveEmbeds([A], { fetchOEmbed, cache, now: () => now });
    expect(calls).toHaveLength(2);
  });

  it('keeps unresolved results for the shorter TTL, then asks again', async () => {
    let now = NOW;
    const { cache, puts } = memoryCache(() => now);
    const { fetchOEmbed, calls } = fetcher({});
    await resolveEmbeds([A], { fetchOEmbed, cache, now: () => now }, { unresolvedTtlSeconds: 100 });
    expect(puts[0]?.ttl).toBe(100);
    now = new Date(NOW.getTime() + 99_000);
    await resolveEmbeds([A], { fetchOEmbed, cache, now: () => now }, { unresolvedTtlSeconds: 100 });
    expect(calls).toHaveLength(1);
    now = new Date(NOW.getTime() + 100_000);
    await resolveEmbeds([A], { fetchOEmbed, cache, now: () => now }, { unresolvedTtlSeconds: 100 });
    expect(calls).toHaveLength(2);
  });

  it('does not cache failures, reports them and answers null', async () => {
    const { cache, puts } = memoryCache(() => NOW);
    const failure = new Error('connection reset');
    const { fetchOEmbed } = fetcher({ [A]: failure });
    const errors: Array<[string, unknown]> = [];
    const result = await resolveEmbeds([A], {
      fetchOEmbed,
      cache,
      now: () => NOW,
      onError: (url, error) => errors.push([url, error]),
    });
    expect(result.get(A)).toBeNull();
    expect(puts).toEqual([]);
    expect(errors).toEqual([[A, failure]]);
  });

  it('keys the cache by maxwidth', async () => {
    const { cache } = memoryCache(() => NOW);
    const { fetchOEmbed, calls } = fetcher({ [A]: { type: 'rich', html: 'x' } });
    await resolveEmbeds([A], { fetchOEmbed, cache, now: () => NOW }, { maxwidth: 600 });
    await resolveEmbeds([A], { fetchOEmbed, cache, now: () => NOW }, { maxwidth: 400 });
    await resolveEmbeds([A], { fetchOEmbed, cache, now: () => NOW }, { maxwidth: 600 });
    expect(calls).toEqual([
      [A, 600],
      [A, 400],
    ]);
  });

  it('treats garbage bodies as unresolved', async () => {
    const { cache, puts } = memoryCache(() => NOW);
    const { fetchOEmbed } = fetcher({ [A]: 'not an object', [B]: [1, 2] });
    const result = await resolveEmbeds([A, B], { fetchOEmbed, cache, now: () => NOW });
    expect([...result.values()]).toEqual([null, null]);
    expect(puts.map((put) => put.ttl)).toEqual([3_600, 3_600]);
  });
});

describe('parseOEmbedResponse', () => {
  it('keeps known fields of the right type and reads numeric strings', () => {
    expect(
      parseOEmbedResponse({
        type: 'VIDEO',
        version: '1.0',
        title: 'T',
        html: '<iframe></iframe>',
        width: '640',
        height: 360,
        cache_age: '3600',
        provider_name: 42,
        extra: 'dropped',
        thumbnail_width: -1,
      }),
    ).toEqual({
      type: 'video',
      version: '1.0',
      title: 'T',
      html: '<iframe></iframe>',
      width: 640,
      height: 360,
      cache_age: 3600,
    });
  });

  it('guesses a missing type', () => {
    expect(parseOEmbedResponse({ html: '<p>x</p>' })?.type).toBe('rich');
    expect(parseOEmbedResponse({ url: 'https://i.test/a.png' })?.type).toBe('photo');
    expect(parseOEmbedResponse({ title: 't', type: 'bogus' })?.type).toBe('link');
  });

  it.each([[null], [undefined], ['x'], [42], [[{ type: 'rich' }]]])('reads %j as null', (value) => {
    expect(parseOEmbedResponse(value)).toBeNull();
  });
});
