import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ManifestFile } from '../../../src/site/build-manifest.js';
import { sha256 } from '../../../src/site/digest.js';
import {
  listOutputFiles,
  writeOutputs as stageOutputs,
  type OutputSpec,
  type WriteOptions,
} from '../../../src/site/output-writer.js';
import { openStaging } from '../../../src/site/output-switch.js';

let tmp: string;
let root: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-writer-'));
  root = path.join(tmp, 'pl');
});

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function entry(content: string, input = 'i'): ManifestFile {
  return { hash: sha256(content), input, bytes: Buffer.byteLength(content) };
}

/** Stages the outputs and commits them at once, as a build does at its end. */
function writeOutputs(
  dir: string,
  outputs: readonly OutputSpec[],
  previous: ReadonlyMap<string, ManifestFile>,
  onDisk: ReadonlySet<string>,
  options: WriteOptions = {},
): ReturnType<typeof stageOutputs> {
  const staging = openStaging(dir);
  try {
    const result = stageOutputs(staging, outputs, previous, onDisk, options);
    staging.commit(result.removedFiles, 'stamp');
    return result;
  } catch (error) {
    staging.discard();
    throw error;
  }
}

describe('writeOutputs', () => {
  it('writes new files, skips identical bytes, deletes files no longer produced', () => {
    const first = writeOutputs(
      root,
      [
        { file: 'a/index.html', input: '1', content: 'A' },
        { file: 'b/c/index.html', input: '1', content: () => 'B' },
      ],
      new Map(),
      new Set(),
    );
    expect(first).toMatchObject({ written: 2, unchanged: 0, removed: 0 });
    const second = writeOutputs(
      root,
      [
        { file: 'a/index.html', input: '2', content: 'A' },
        { file: 'd.txt', input: '1', content: new Uint8Array([1, 2]) },
      ],
      first.files,
      listOutputFiles(root),
    );
    expect(second).toMatchObject({
      written: 1,
      unchanged: 1,
      removed: 1,
      removedFiles: ['b/c/index.html'],
    });
    expect(second.files.get('a/index.html')).toEqual(entry('A', '2'));
    expect([...listOutputFiles(root)].sort()).toEqual(['a/index.html', 'd.txt']);
    // The emptied directories are gone, the root stays.
    expect(fs.existsSync(path.join(root, 'b'))).toBe(false);
  });

  it('removes the temporary file a killed build left between writing and renaming', () => {
    fs.mkdirSync(path.join(root, 'a'), { recursive: true });
    fs.writeFileSync(path.join(root, 'a', 'index.html'), 'A');
    fs.writeFileSync(path.join(root, 'a', 'index.html.4242.tmp'), 'half');
    expect([...listOutputFiles(root)]).toEqual(['a/index.html']);
    expect(fs.readdirSync(path.join(root, 'a'))).toEqual(['index.html']);
  });

  it('keeps a file whose input did not change without reading or writing it', () => {
    fs.mkdirSync(root, { recursive: true });
    fs.writeFileSync(path.join(root, 'x.html'), 'X');
    const result = writeOutputs(
      root,
      [{ file: 'x.html', input: 'i' }],
      new Map([['x.html', entry('X')]]),
      new Set(['x.html']),
    );
    expect(result).toMatchObject({ written: 0, unchanged: 1 });
  });

  it('rewrites a file that went missing even when its bytes did not change', () => {
    const result = writeOutputs(
      root,
      [{ file: 'x.html', input: 'i', content: 'X' }],
      new Map([['x.html', entry('X')]]),
      new Set(),
    );
    expect(result.written).toBe(1);
    expect(fs.readFileSync(path.join(root, 'x.html'), 'utf8')).toBe('X');
  });

  it('refuses to write through a directory that links outside the root', () => {
    const outside = path.join(tmp, 'outside');
    fs.mkdirSync(outside);
    fs.mkdirSync(root);
    fs.symlinkSync(outside, path.join(root, 'linked'));
    expect(() =>
      writeOutputs(
        root,
        [{ file: 'linked/evil.html', input: 'i', content: 'E' }],
        new Map(),
        new Set(),
      ),
    ).toThrow(expect.objectContaining({ code: 'E_UNSAFE_PATH' }));
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('makes no directory through a link either, however deep the path below it', () => {
    const outside = path.join(tmp, 'outside');
    fs.mkdirSync(outside);
    fs.mkdirSync(path.join(root, 'ok'), { recursive: true });
    fs.symlinkSync(outside, path.join(root, 'ok', 'linked'));
    expect(() =>
      writeOutputs(
        root,
        [{ file: 'ok/linked/new/deeper/evil.html', input: 'i', content: 'E' }],
        new Map(),
        new Set(),
      ),
    ).toThrow(expect.objectContaining({ code: 'E_UNSAFE_PATH' }));
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('replaces a file that is a symbolic link instead of writing through it', () => {
    const victim = path.join(tmp, 'victim.txt');
    fs.writeFileSync(victim, 'keep me');
    fs.mkdirSync(root);
    fs.symlinkSync(victim, path.join(root, 'page.html'));
    writeOutputs(root, [{ file: 'page.html', input: 'i', content: 'new' }], new Map(), new Set());
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep me');
    expect(fs.lstatSync(path.join(root, 'page.html')).isSymbolicLink()).toBe(false);
  });

  it('never creates a file through a dangling symbolic link', () => {
    const target = path.join(tmp, 'created-through-link.txt');
    fs.mkdirSync(root);
    fs.symlinkSync(target, path.join(root, 'page.html'));
    writeOutputs(root, [{ file: 'page.html', input: 'i', content: 'new' }], new Map(), new Set());
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.readFileSync(path.join(root, 'page.html'), 'utf8')).toBe('new');
  });

  it('changes nothing under the root until the commit, and nothing once discarded', () => {
    fs.mkdirSync(path.join(root, 'old'), { recursive: true });
    fs.writeFileSync(path.join(root, 'old/index.html'), 'old');
    const previous = new Map([['old/index.html', entry('old')]]);
    const staging = openStaging(root);
    const result = stageOutputs(
      staging,
      [{ file: 'new/deep/index.html', input: '2', content: 'new' }],
      previous,
      new Set(previous.keys()),
    );
    expect(result).toMatchObject({ written: 1, removedFiles: ['old/index.html'] });
    expect(listOutputFiles(root)).toEqual(new Set(['old/index.html']));
    staging.discard();
    expect(listOutputFiles(root)).toEqual(new Set(['old/index.html']));
    expect(fs.readdirSync(tmp).sort()).toEqual(['.cms-mirror', 'pl']);
    expect(fs.readdirSync(path.join(tmp, '.cms-mirror'))).toEqual([]);
  });

  it('never deletes outside the root, whatever a tampered manifest lists', () => {
    const victim = path.join(tmp, 'victim.txt');
    fs.writeFileSync(victim, 'keep me');
    fs.mkdirSync(root);
    const previous = new Map([
      ['../victim.txt', entry('x')],
      [victim, entry('x')],
      ['a/../../victim.txt', entry('x')],
    ]);
    const result = writeOutputs(root, [], previous, new Set(previous.keys()));
    expect(result.removed).toBe(0);
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep me');
  });

  it('refuses unsafe output paths', () => {
    expect(() =>
      writeOutputs(root, [{ file: '../x', input: 'i', content: 'x' }], new Map(), new Set()),
    ).toThrow(expect.objectContaining({ code: 'E_UNSAFE_PATH' }));
    expect(fs.existsSync(path.join(tmp, 'x'))).toBe(false);
  });

  it('lets a later call remove stale files while keeping what an earlier call produced', () => {
    const first = writeOutputs(
      root,
      [
        { file: 'page.html', input: '1', content: 'P' },
        { file: 'pagefind/s0/old.pf', input: '1', content: 'O' },
      ],
      new Map(),
      new Set(),
    );
    const onDisk = listOutputFiles(root);
    const pages = writeOutputs(
      root,
      [{ file: 'page.html', input: '1', content: 'P' }],
      first.files,
      onDisk,
      { removeStale: false },
    );
    const search = writeOutputs(
      root,
      [{ file: 'pagefind/s0/new.pf', input: '2', content: 'N' }],
      first.files,
      onDisk,
      {
        alsoProduced: pages.files,
      },
    );
    expect(search.removedFiles).toEqual(['pagefind/s0/old.pf']);
    expect([...listOutputFiles(root)].sort()).toEqual(['page.html', 'pagefind/s0/new.pf']);
  });
});
