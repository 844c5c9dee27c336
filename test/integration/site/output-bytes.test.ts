/**
 * Issue 17: the build is reshaped for memory and speed, and its output must not change. The
 * oracle is a list of every output file's sha256 for the reference site's demo content, both
 * languages, recorded from the build of `9630c44` (the start of the build's streaming work;
 * the issue's own starting commit predates deliberate output changes of issues 12 and 14).
 * The site's origin (a random port) is replaced by `ORIGIN` in text files before hashing;
 * the build's stamps (`.cms-mirror/`) are random by design and left out.
 *
 * A second case builds 2,500 generated posts of one language, more than one chunk of the
 * build's rendering and search bundles, and pins one digest over every file's name and hash.
 *
 * A deliberate change of the output updates the list: `UPDATE_OUTPUT_BYTES=1 npx vitest run
 * test/integration/site/output-bytes.test.ts` rewrites it and fails once, so that the new list
 * is committed on purpose, with a message that says why the bytes changed.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMirror, type Mirror } from '../../helpers/e2e-site.js';
import { walkFiles } from '../../helpers/link-check.js';

const PINNED = path.join(import.meta.dirname, 'output-bytes.pinned.json');
const TEXT = /\.(html|xml|txt|json|css|js)$/;

interface Pinned {
  commit: string;
  files: Record<string, string>;
  /** The generated site: how many files, and one digest over every `name hash` line. */
  generated?: { posts: number; files: number; digest: string };
}

const GENERATED_POSTS = 2_500;

function digestOfAll(hashes: Record<string, string>): string {
  const lines = Object.keys(hashes)
    .sort()
    .map((file) => `${file} ${hashes[file]}\n`);
  return createHash('sha256').update(lines.join('')).digest('hex');
}

function updating(): boolean {
  return process.env['UPDATE_OUTPUT_BYTES'] === '1';
}

function readPinned(): Pinned {
  return JSON.parse(fs.readFileSync(PINNED, 'utf8')) as Pinned;
}

function writePinned(pinned: Pinned): never {
  fs.writeFileSync(PINNED, `${JSON.stringify(pinned, null, 2)}\n`);
  throw new Error(`${PINNED} rewritten: commit it with the reason the output changed`);
}

/** `lang/path` → sha256 of every file the build wrote, the origin written as `ORIGIN`. */
function outputHashes(outDir: string, origin: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const file of walkFiles(outDir)) {
    if (file.startsWith('.cms-mirror/')) continue;
    let bytes = fs.readFileSync(path.join(outDir, file));
    if (TEXT.test(file)) bytes = Buffer.from(bytes.toString('utf8').replaceAll(origin, 'ORIGIN'));
    hashes[file] = createHash('sha256').update(bytes).digest('hex');
  }
  return hashes;
}

/** The same files as the pinned build, each with the pinned bytes. */
function expectPinnedBytes(actual: Record<string, string>): void {
  const pinned = readPinned();
  expect(Object.keys(pinned.files).length).toBeGreaterThan(100);
  expect(Object.keys(actual).sort()).toEqual(Object.keys(pinned.files).sort());
  const differing = Object.keys(pinned.files).filter((file) => actual[file] !== pinned.files[file]);
  expect(differing, 'files whose bytes differ from the pinned build').toEqual([]);
}

/**
 * By the modules the tests load, and by the package's `bin`, which renders in its own bundled
 * render worker (Eleventy and its engines in one file, scripts/bundle-render-worker.mjs): both
 * are held to the same list. The `bin` runs the compiled output: `npm run build` first.
 */
describe.each([
  { by: 'the modules', bin: false },
  { by: 'the bundled CLI', bin: true },
])('the built output of the demo content, by $by', ({ bin }) => {
  let mirror: Mirror;

  beforeAll(async () => {
    mirror = await startMirror();
  }, 60_000);
  afterAll(async () => {
    await mirror?.close();
  });

  it('has the pinned bytes, file for file', async () => {
    await (bin ? mirror.runBin() : mirror.run());
    const actual = outputHashes(mirror.outDir, mirror.site.url);
    if (!bin && updating()) writePinned({ ...readPinned(), files: actual });
    expectPinnedBytes(actual);
  }, 300_000);
});

describe(`the built output of ${GENERATED_POSTS} generated posts`, () => {
  let mirror: Mirror;

  beforeAll(async () => {
    mirror = await startMirror({ reference: { posts: GENERATED_POSTS }, languages: ['pl'] });
  }, 60_000);
  afterAll(async () => {
    await mirror?.close();
  });

  it('has the pinned bytes (one digest over every file)', async () => {
    await mirror.run();
    const actual = outputHashes(mirror.outDir, mirror.site.url);
    const generated = {
      posts: GENERATED_POSTS,
      files: Object.keys(actual).length,
      digest: digestOfAll(actual),
    };
    if (updating()) writePinned({ ...readPinned(), generated });
    expect(generated.files).toBeGreaterThan(2 * GENERATED_POSTS);
    expect(generated).toEqual(readPinned().generated);
  }, 600_000);
});
