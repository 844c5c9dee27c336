/**
 * A search worker stages its bundle's files itself (`stageBundle`): every file it reports as
 * written is in the staging directory with the bytes of the hash it reports, a file whose bytes
 * the last build left on disk is not written again, and a path outside the language root is
 * refused before anything is written. The oracle hashes the bytes itself with node:crypto.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stageBundle } from '../../../src/site/bundle-staging.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bundle-staging-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);

function stage(previous: Map<string, string> = new Map()) {
  return { root: path.join(tmp, 'pl'), dir: path.join(tmp, 'pl.stage'), previous };
}

describe('a search bundle staged by the thread that built it', () => {
  it('writes every file with the bytes of the hash it reports', () => {
    const files = new Map([
      ['pagefind/s0/pagefind-entry.json', bytesOf('{"version":"1"}')],
      ['pagefind/s0/fragment/pl_1.pf_fragment', Uint8Array.from([0x1f, 0x8b, 0, 255])],
      ['pagefind/s0/index/pl_2.pf_index', bytesOf('zażółć')],
    ]);
    const staged = stageBundle(files, stage());
    expect([...staged.keys()]).toEqual([...files.keys()]);
    for (const [file, bytes] of files) {
      expect(staged.get(file)).toEqual({
        hash: sha(bytes),
        bytes: bytes.byteLength,
        written: true,
      });
      const onDisk = fs.readFileSync(path.join(tmp, 'pl.stage', file));
      expect(sha(onDisk)).toBe(sha(bytes));
    }
  });

  it('writes no file whose bytes the last build left on disk', () => {
    const same = bytesOf('same');
    const files = new Map([
      ['pagefind/s1/same.json', same],
      ['pagefind/s1/changed.json', bytesOf('new')],
    ]);
    const previous = new Map([
      ['pagefind/s1/same.json', sha(same)],
      ['pagefind/s1/changed.json', sha(bytesOf('old'))],
    ]);
    const staged = stageBundle(files, stage(previous));
    expect(staged.get('pagefind/s1/same.json')).toEqual({
      hash: sha(same),
      bytes: 4,
      written: false,
    });
    expect(staged.get('pagefind/s1/changed.json')?.written).toBe(true);
    expect(fs.existsSync(path.join(tmp, 'pl.stage', 'pagefind/s1/same.json'))).toBe(false);
    expect(fs.readFileSync(path.join(tmp, 'pl.stage', 'pagefind/s1/changed.json'), 'utf8')).toBe(
      'new',
    );
  });

  it('refuses a file outside the language root and writes nothing there', () => {
    const files = new Map([['../escaped.json', bytesOf('x')]]);
    expect(() => stageBundle(files, stage())).toThrow(
      expect.objectContaining({ code: 'E_UNSAFE_PATH' }),
    );
    expect(fs.existsSync(path.join(tmp, 'escaped.json'))).toBe(false);
    expect(fs.readdirSync(tmp)).toEqual([]);
  });
});
