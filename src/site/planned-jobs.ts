/**
 * A plan's pages without a job object per page held for the whole build (issue 17): the
 * listing pages and the post pages are kept as typed columns (which listing number or which
 * placed post, and the page's digest as 16 bytes), and each `PlannedJob` is made when the
 * list is walked, then let go. At 100,000 posts an object per page, its digest string and the
 * arrays and sets of them the render made cost ~0.2 KB a page; the columns cost 20 bytes.
 * The few other pages (the site's pages, 404, search) are held as they are.
 */
import type { PlannedJob } from './site-plan.js';

/** Bytes of a digest (`digestOf` gives 32 hex digits). */
const DIGEST_BYTES = 16;

/** A run of pages of one kind, made one at a time from its columns. */
export interface JobRun {
  readonly length: number;
  at(offset: number): PlannedJob;
  /** The digest of the job at `offset`, without making the job. */
  digest(offset: number): string;
}

/** Fixed-width digests in one buffer, in the order they are added. */
export class DigestColumn {
  readonly #bytes: Buffer;
  #length = 0;

  constructor(capacity: number) {
    this.#bytes = Buffer.alloc(capacity * DIGEST_BYTES);
  }

  get length(): number {
    return this.#length;
  }

  push(digest: string): void {
    const at = this.#length * DIGEST_BYTES;
    if (digest.length !== DIGEST_BYTES * 2 || at >= this.#bytes.length)
      throw new Error(`Internal error: digest ${digest} does not fit the column.`);
    this.#bytes.write(digest, at, DIGEST_BYTES, 'hex');
    this.#length++;
  }

  get(index: number): string {
    const at = index * DIGEST_BYTES;
    return this.#bytes.toString('hex', at, at + DIGEST_BYTES);
  }
}

/** A column of numbers (listing numbers, post indexes) with the digest of each one's page. */
export class NumberedRun implements JobRun {
  readonly #numbers: Uint32Array;
  readonly #digests: DigestColumn;
  readonly #make: (number: number, digest: string) => PlannedJob;
  #length = 0;

  constructor(capacity: number, make: (number: number, digest: string) => PlannedJob) {
    this.#numbers = new Uint32Array(capacity);
    this.#digests = new DigestColumn(capacity);
    this.#make = make;
  }

  get length(): number {
    return this.#length;
  }

  push(number: number, digest: string): void {
    this.#digests.push(digest);
    this.#numbers[this.#length++] = number;
  }

  at(offset: number): PlannedJob {
    if (offset < 0 || offset >= this.#length)
      throw new Error(`Internal error: job ${offset} of ${this.#length} is not planned.`);
    return this.#make(this.#numbers[offset] as number, this.#digests.get(offset));
  }

  digest(offset: number): string {
    if (offset < 0 || offset >= this.#length)
      throw new Error(`Internal error: job ${offset} of ${this.#length} is not planned.`);
    return this.#digests.get(offset);
  }
}

/** Jobs held as objects (the few pages that are not listings or posts). */
export class HeldRun implements JobRun {
  readonly #jobs: PlannedJob[] = [];

  get length(): number {
    return this.#jobs.length;
  }

  push(job: PlannedJob): void {
    this.#jobs.push(job);
  }

  at(offset: number): PlannedJob {
    const job = this.#jobs[offset];
    if (job === undefined) throw new Error(`Internal error: job ${offset} is not planned.`);
    return job;
  }

  digest(offset: number): string {
    return this.at(offset).digest;
  }
}

/**
 * Every page of a plan in order, the runs one after the other. Walking it makes each job
 * again: keep none beyond the chunk at hand.
 */
export class PlannedJobs implements Iterable<PlannedJob> {
  readonly #runs: readonly JobRun[];

  constructor(runs: readonly JobRun[]) {
    this.#runs = runs;
  }

  get length(): number {
    let length = 0;
    for (const run of this.#runs) length += run.length;
    return length;
  }

  *[Symbol.iterator](): Generator<PlannedJob> {
    for (const run of this.#runs)
      for (let offset = 0; offset < run.length; offset++) yield run.at(offset);
  }

  /**
   * Each job's digest, in order (the model digest is made from them): read from the runs'
   * columns, no job made (a post's job object per page, only to read its digest).
   */
  *digests(): Generator<string> {
    for (const run of this.#runs)
      for (let offset = 0; offset < run.length; offset++) yield run.digest(offset);
  }
}
