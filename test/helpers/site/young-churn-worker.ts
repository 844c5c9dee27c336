/**
 * Worker entry of `worker-young-generation.test.ts`: allocates objects of which many outlive a
 * scavenge (so that V8 grows the young generation as far as it may), and answers with the
 * largest young generation it saw, in bytes.
 */
import v8 from 'node:v8';
import { serveCalls } from '../../../src/worker-calls.js';

serveCalls(() => {
  let live: { n: number; s: string }[] = [];
  let largest = 0;
  for (let round = 0; round < 150; round++) {
    for (let i = 0; i < 20_000; i++) live.push({ n: i, s: `item ${i}` });
    if (live.length > 100_000) live = live.slice(50_000);
    const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    largest = Math.max(largest, young?.space_size ?? 0);
  }
  return Promise.resolve(largest);
});
