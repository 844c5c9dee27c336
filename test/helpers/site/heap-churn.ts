/**
 * Child process of `heap-growth.test.ts`: limits the heap's growth as a build does when asked,
 * then keeps ~20 MB of small objects live while it churns through ~150 MB more, and prints the
 * largest committed heap it saw, in bytes.
 *   tsx heap-churn.ts limited|none
 */
import v8 from 'node:v8';
import { limitHeapGrowth } from '../../../src/site/heap-growth.js';

if (process.argv[2] === 'limited') limitHeapGrowth();

let live: { n: number; s: string; a: number[] }[] = [];
let largest = 0;
for (let i = 0; i < 3_000_000; i++) {
  live.push({ n: i, s: `item ${i}`, a: [i] });
  // Half of what is live becomes garbage each time: the old generation fills with it.
  if (live.length > 200_000) live = live.slice(100_000);
  if (i % 10_000 === 0) largest = Math.max(largest, v8.getHeapStatistics().total_heap_size);
}
process.stdout.write(String(largest));
