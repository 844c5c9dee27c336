/**
 * Cases found by mutation testing (test/mutation/RESULTS.md): what the writer stages, keeps,
 * counts and lists as stale, and what it refuses, seen on disk after the switch.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ManifestFile } from '../../../src/site/build-manifest.js';
import {
  listOutputFiles,
  mergeResults,
  writeOutputs,
  type OutputSpec,
  type WriteOptions,
  type WriteResult,
} from '../../../src/site/output-writer.js';
import { openStaging } from '../../../src/site/output-switch.js';

let tmp: string;
let root: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-writer-m-'));
  root = path.join(tmp, 'pl');
});

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** sha256 of the bytes, computed here rather than by the module under test. */
function hashOf(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

function entry(content: string, input = 'i'): ManifestFile {
  return { hash: hashOf(content), input, bytes: Buffer.byteLength(content) };
}

/** Stages and commits at once, as a build does at its end. */
function build(
  outputs: readonly OutputSpec[],
  previous: ReadonlyMap<string, ManifestFile> = new Map(),
  onDisk: ReadonlySet<string> = listOutputFiles(root),
  options: WriteOptions = {},
): WriteResult {
  const staging = openStaging(root, () => undefined);
  try {
    const result = writeOutputs(staging, outputs, previous, onDisk, options);
    staging.commit(result.removedFiles, 'stamp');
    return result;
  } catch (error) {
    staging.discard();
    throw error;
  }
}

function put(file: string, content: string): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), content);
}

describe('listOutputFiles', () => {
  it('lists files only, with forward slashes, and nothing for a missing root', () => {
    expect(listOutputFiles(root)).toEqual(new Set());
    put('a/b/index.html', 'x');
    put('top.html', 'y');
    fs.mkdirSync(path.join(root, 'empty'));
    expect([...listOutputFiles(root)].sort()).toEqual(['a/b/index.html', 'top.html']);
  });

  it('fails on a root it cannot read as a directory', () => {
    fs.writeFileSync(root, 'a file, not a folder');
    expect(() => listOutputFiles(root)).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });

  it('removes only the temporary files of a replacing write (name.pid.tmp)', () => {
    const kept = ['page.tmp', 'page.html.x1.tmp', 'page.1.tmp.html', 'notes.tmp.txt', '1.tmpx'];
    const removed = ['page.html.1.tmp', 'sub/page.html.123456.tmp'];
    for (const file of [...kept, ...removed]) put(file, 'x');
    expect([...listOutputFiles(root)].sort()).toEqual([...kept].sort());
    for (const file of removed) expect(fs.existsSync(path.join(root, file)), file).toBe(false);
    for (const file of kept) expect(fs.existsSync(path.join(root, file)), file).toBe(true);
  });
});

describe('writeOutputs: what is written and recorded', () => {
  it('records the sha256, the input and the byte length of every output', () => {
    const bytes = new Uint8Array([0, 255, 7]);
    const result = build([
      { file: 'ż.html', input: 'in-1', content: 'zażółć' },
      { file: 'made.html', input: 'in-2', content: () => 'made later' },
      { file: 'raw.bin', input: 'in-3', content: bytes },
      { file: 'lazy.bin', input: 'in-4', content: () => bytes },
    ]);
    expect(result.files).toEqual(
      new Map([
        ['ż.html', { hash: hashOf('zażółć'), input: 'in-1', bytes: 10 }],
        ['made.html', { hash: hashOf('made later'), input: 'in-2', bytes: 10 }],
        ['raw.bin', { hash: hashOf(bytes), input: 'in-3', bytes: 3 }],
        ['lazy.bin', { hash: hashOf(bytes), input: 'in-4', bytes: 3 }],
      ]),
    );
    expect(fs.readFileSync(path.join(root, 'ż.html'), 'utf8')).toBe('zażółć');
    expect(fs.readFileSync(path.join(root, 'made.html'), 'utf8')).toBe('made later');
    expect([...fs.readFileSync(path.join(root, 'lazy.bin'))]).toEqual([0, 255, 7]);
    expect(result.writtenFiles).toEqual(['ż.html', 'made.html', 'raw.bin', 'lazy.bin']);
    expect(result).toMatchObject({ written: 4, unchanged: 0, removed: 0, removedFiles: [] });
  });

  it('rewrites changed bytes, leaves identical bytes untouched, and says which', () => {
    build([
      { file: 'same.html', input: '1', content: 'same' },
      { file: 'changed.html', input: '1', content: 'old' },
    ]);
    const previous = new Map([
      ['same.html', entry('same', '1')],
      ['changed.html', entry('old', '1')],
    ]);
    const sameBefore = fs.statSync(path.join(root, 'same.html')).ino;
    const result = build(
      [
        { file: 'same.html', input: '2', content: 'same' },
        { file: 'changed.html', input: '2', content: 'new' },
      ],
      previous,
    );
    expect(result).toMatchObject({
      written: 1,
      unchanged: 1,
      writtenFiles: ['changed.html'],
      removed: 0,
    });
    expect(result.files.get('same.html')).toEqual(entry('same', '2'));
    expect(fs.readFileSync(path.join(root, 'changed.html'), 'utf8')).toBe('new');
    // Untouched: the same inode, not a staged copy renamed over it.
    expect(fs.statSync(path.join(root, 'same.html')).ino).toBe(sameBefore);
  });

  it('keeps a file given without content under its old entry with the new input', () => {
    put('kept.html', 'K');
    const previous = new Map([['kept.html', { hash: hashOf('K'), input: 'old', bytes: 1 }]]);
    const result = build([{ file: 'kept.html', input: 'new' }], previous, new Set(['kept.html']));
    expect(result.files.get('kept.html')).toEqual({ hash: hashOf('K'), input: 'new', bytes: 1 });
    expect(result).toMatchObject({ written: 0, unchanged: 1, writtenFiles: [] });
  });

  it('refuses to keep a file without content that has no entry or is not on disk', () => {
    const previous = new Map([['kept.html', entry('K')]]);
    expect(() =>
      build([{ file: 'kept.html', input: 'i' }], new Map(), new Set(['kept.html'])),
    ).toThrow(/kept\.html kept but not on disk/);
    expect(() => build([{ file: 'kept.html', input: 'i' }], previous, new Set())).toThrow(
      /kept\.html kept but not on disk/,
    );
  });

  it('refuses a file produced twice in one call', () => {
    expect(() =>
      build([
        { file: 'twice.html', input: '1', content: 'a' },
        { file: 'twice.html', input: '2', content: 'b' },
      ]),
    ).toThrow(/twice\.html is produced twice/);
    expect(fs.existsSync(path.join(root, 'twice.html'))).toBe(false);
  });

  it('refuses an unsafe path even when the manifest says its bytes are unchanged', () => {
    const previous = new Map([['../x.html', entry('x')]]);
    expect(() =>
      build([{ file: '../x.html', input: 'i', content: 'x' }], previous, new Set(['../x.html'])),
    ).toThrow(expect.objectContaining({ code: 'E_UNSAFE_PATH' }));
  });
});

describe('writeOutputs: stale files', () => {
  function firstBuild(): Map<string, ManifestFile> {
    return build([
      { file: 'a.html', input: '1', content: 'A' },
      { file: 'b.html', input: '1', content: 'B' },
      { file: 'c.html', input: '1', content: 'C' },
    ]).files;
  }

  it('lists the previous files not produced again and still on disk, and only those', () => {
    const previous = firstBuild();
    fs.rmSync(path.join(root, 'c.html'));
    const result = build([{ file: 'a.html', input: '1', content: 'A' }], previous);
    expect(result).toMatchObject({ removed: 1, removedFiles: ['b.html'] });
    expect([...listOutputFiles(root)]).toEqual(['a.html']);
  });

  it('lists none when told not to, and none that an earlier call produced', () => {
    const previous = firstBuild();
    const noStale = build([], previous, listOutputFiles(root), { removeStale: false });
    expect(noStale).toMatchObject({ removed: 0, removedFiles: [] });
    expect([...listOutputFiles(root)].sort()).toEqual(['a.html', 'b.html', 'c.html']);
    const earlier = new Map([['b.html', entry('B', '1')]]);
    const result = build([], previous, listOutputFiles(root), { alsoProduced: earlier });
    expect(result.removedFiles.sort()).toEqual(['a.html', 'c.html']);
    expect([...listOutputFiles(root)]).toEqual(['b.html']);
  });

  it('skips a stale entry with an unsafe path but still lists the safe ones', () => {
    const previous = new Map([
      ['../victim.html', entry('v')],
      ['safe.html', entry('s')],
    ]);
    put('safe.html', 's');
    const result = build([], previous, new Set(previous.keys()));
    expect(result).toMatchObject({ removed: 1, removedFiles: ['safe.html'] });
  });
});

describe('mergeResults', () => {
  it('adds the counts and joins the lists and manifests of several calls', () => {
    const one: WriteResult = {
      written: 2,
      unchanged: 1,
      removed: 1,
      writtenFiles: ['a', 'b'],
      removedFiles: ['x'],
      files: new Map([['a', entry('a')]]),
    };
    const two: WriteResult = {
      written: 1,
      unchanged: 3,
      removed: 2,
      writtenFiles: ['c'],
      removedFiles: ['y', 'z'],
      files: new Map([['c', entry('c')]]),
    };
    expect(mergeResults(one, two)).toEqual({
      written: 3,
      unchanged: 4,
      removed: 3,
      writtenFiles: ['a', 'b', 'c'],
      removedFiles: ['x', 'y', 'z'],
      files: new Map([
        ['a', entry('a')],
        ['c', entry('c')],
      ]),
    });
    expect(mergeResults()).toEqual({
      written: 0,
      unchanged: 0,
      removed: 0,
      writtenFiles: [],
      removedFiles: [],
      files: new Map(),
    });
  });
});
