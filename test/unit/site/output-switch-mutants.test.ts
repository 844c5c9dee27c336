/**
 * Cases found by mutation testing (test/mutation/RESULTS.md): the switch's stamp, journal,
 * recovery and clean-up, seen on disk and in the build trace.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openStaging,
  readStamp,
  recoverOutput,
  stampOf,
  STATE_DIR,
} from '../../../src/site/output-switch.js';

let tmp: string;
let root: string;
let state: string;
let steps: string[];
const trace = (step: string): void => {
  steps.push(step);
};

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-switch-m-'));
  root = path.join(tmp, 'pl');
  state = path.join(tmp, '.cms-mirror');
  steps = [];
});

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function tree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, full).split(path.sep).join('/')] = fs.readFileSync(full, 'utf8');
  }
  return files;
}

function put(file: string, content: string): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), content);
}

describe('stamps', () => {
  it('one stamp per build: equal parts give equal stamps, any part changed another', () => {
    const build = { buildVersion: '1', templatesHash: 't', modelDigest: 'm' };
    const stamp = stampOf(build);
    expect(stamp).toMatch(/^[0-9a-f]{32}$/);
    expect(stampOf({ ...build })).toBe(stamp);
    const others = [
      stampOf({ ...build, buildVersion: '2' }),
      stampOf({ ...build, templatesHash: 'u' }),
      stampOf({ ...build, modelDigest: 'n' }),
    ];
    expect(new Set([stamp, ...others]).size).toBe(4);
  });

  it('the stamp lives in the state folder beside the language, named after it', () => {
    expect(STATE_DIR).toBe('.cms-mirror');
    openStaging(root, trace).commit([], 'S1');
    expect(fs.readFileSync(path.join(state, 'pl.stamp'), 'utf8')).toBe('S1');
    expect(readStamp(root)).toBe('S1');
    expect(readStamp(path.join(tmp, 'es'))).toBeUndefined();
  });

  it('a stamp that cannot be read is an error, not "never built"', () => {
    fs.mkdirSync(path.join(state, 'pl.stamp'), { recursive: true });
    expect(() => readStamp(root)).toThrow(expect.objectContaining({ code: 'EISDIR' }));
  });
});

describe('staging and commit', () => {
  it('builds a language folder that did not exist, deep folders included', () => {
    const staging = openStaging(root, trace);
    staging.put('a/b/c/index.html', Buffer.from('C'));
    staging.put('a/b/d/index.html', Buffer.from('D'));
    staging.put('top.html', Buffer.from('T'));
    expect(fs.existsSync(root)).toBe(false);
    staging.commit([], 'S1');
    expect(tree(root)).toEqual({
      'a/b/c/index.html': 'C',
      'a/b/d/index.html': 'D',
      'top.html': 'T',
    });
    expect(fs.readdirSync(state)).toEqual(['pl.stamp']);
  });

  it('traces each step under the language name, in order', () => {
    put('old.html', 'old');
    const staging = openStaging(root, trace);
    staging.put('new.html', Buffer.from('new'));
    staging.commit(['old.html'], 'S1');
    expect(steps).toEqual(['stage pl new.html', 'commit pl', 'switch pl new.html', 'switched pl']);
  });

  it('refuses to stage an unsafe path', () => {
    const staging = openStaging(root, trace);
    expect(() => staging.put('../x.html', Buffer.from('x'))).toThrow(
      expect.objectContaining({ code: 'E_UNSAFE_PATH' }),
    );
    expect(fs.existsSync(path.join(tmp, 'x.html'))).toBe(false);
    expect(fs.existsSync(path.join(state, 'x.html'))).toBe(false);
  });

  it('removes folders the deletions emptied, and keeps those still holding files', () => {
    put('gone/deep/a.html', 'a');
    put('half/b.html', 'b');
    put('half/c.html', 'c');
    openStaging(root, trace).commit(['gone/deep/a.html', 'half/b.html'], 'S1');
    expect(tree(root)).toEqual({ 'half/c.html': 'c' });
    expect(fs.existsSync(path.join(root, 'gone'))).toBe(false);
    expect(fs.existsSync(root)).toBe(true);
  });

  it('deletes the safe files a journal lists even when it also lists unsafe ones', () => {
    put('a.html', 'a');
    put('b.html', 'b');
    fs.writeFileSync(path.join(tmp, 'victim.html'), 'keep');
    openStaging(root, trace).commit(['a.html', '../victim.html', 'b.html'], 'S1');
    expect(tree(root)).toEqual({});
    expect(fs.readFileSync(path.join(tmp, 'victim.html'), 'utf8')).toBe('keep');
  });

  it('discarding removes what was staged and leaves the output and stamp as they were', () => {
    put('a.html', 'old');
    openStaging(root, trace).commit([], 'S1');
    const staging = openStaging(root, trace);
    staging.put('a.html', Buffer.from('new'));
    staging.discard();
    expect(tree(root)).toEqual({ 'a.html': 'old' });
    expect(fs.readdirSync(state)).toEqual(['pl.stamp']);
    expect(readStamp(root)).toBe('S1');
  });

  it('switches in the files another thread wrote into the staging and recorded', () => {
    // A render worker stages a chunk's pages itself; the switch moves what was recorded.
    put('old.html', 'old');
    const staging = openStaging(root, trace);
    fs.mkdirSync(path.join(staging.dir, 'posts'), { recursive: true });
    fs.writeFileSync(path.join(staging.dir, 'posts', 'a.html'), 'from a worker');
    staging.recordStaged('posts/a.html');
    staging.commit(['old.html'], 'S1');
    expect(tree(root)).toEqual({ 'posts/a.html': 'from a worker' });
    expect(steps).toContain('stage pl posts/a.html');
    expect(readStamp(root)).toBe('S1');
  });

  it('moves staged files onto a language folder on another file system', () => {
    // /dev/shm is a tmpfs: a rename from the staging folder there fails with EXDEV.
    const elsewhere = fs.mkdtempSync(path.join('/dev/shm', 'cms-switch-m-'));
    try {
      fs.writeFileSync(path.join(elsewhere, 'a.html'), 'old');
      fs.symlinkSync(elsewhere, root);
      const staging = openStaging(root, trace);
      staging.put('a.html', Buffer.from('new A'));
      staging.put('b/c.html', Buffer.from('new C'));
      staging.commit([], 'S1');
      expect(tree(elsewhere)).toEqual({ 'a.html': 'new A', 'b/c.html': 'new C' });
      expect(fs.readdirSync(state)).toEqual(['pl.stamp']);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('recovery', () => {
  it('does nothing, and traces nothing, when no build was killed', () => {
    put('a.html', 'a');
    recoverOutput(root, trace);
    expect(steps).toEqual([]);
    expect(tree(root)).toEqual({ 'a.html': 'a' });
  });

  it('rolls back, and traces it, a staging left without a journal', () => {
    put('a.html', 'old');
    openStaging(root, trace).put('a.html', Buffer.from('new'));
    steps = [];
    recoverOutput(root, trace);
    expect(steps).toEqual(['recover pl back']);
    expect(tree(root)).toEqual({ 'a.html': 'old' });
    expect(fs.readdirSync(state)).toEqual([]);
  });

  it('rolls forward, and traces it, a committed journal', () => {
    put('a.html', 'old');
    const staging = openStaging(root, (step) => {
      if (step === 'commit pl') throw new Error('killed');
    });
    staging.put('a.html', Buffer.from('new'));
    expect(() => staging.commit([], 'S2')).toThrow('killed');
    recoverOutput(root, trace);
    expect(steps).toEqual(['recover pl forward', 'switch pl a.html', 'switched pl']);
    expect(tree(root)).toEqual({ 'a.html': 'new' });
    expect(readStamp(root)).toBe('S2');
  });

  it.each([
    ['not JSON', '{"removed": ['],
    ['no list of removed files', JSON.stringify({ stamp: 'S2' })],
    ['a removed entry that is not a path', JSON.stringify({ removed: ['a.html', 3], stamp: 'S2' })],
    ['no stamp', JSON.stringify({ removed: ['a.html'] })],
    ['a stamp that is not text', JSON.stringify({ removed: ['a.html'], stamp: 2 })],
  ])('ignores a journal with %s: the staging is rolled back', (_what, text) => {
    put('a.html', 'old');
    openStaging(root, trace).put('a.html', Buffer.from('new'));
    fs.writeFileSync(path.join(state, 'pl.journal'), text);
    steps = [];
    recoverOutput(root, trace);
    expect(steps).toEqual(['recover pl back']);
    expect(tree(root)).toEqual({ 'a.html': 'old' });
    expect(fs.readdirSync(state)).toEqual([]);
    expect(readStamp(root)).toBeUndefined();
  });

  it('removes a half-written journal left beside the state folder', () => {
    fs.mkdirSync(state, { recursive: true });
    fs.writeFileSync(path.join(state, 'pl.journal.tmp'), '{"removed": [');
    recoverOutput(root, trace);
    expect(fs.readdirSync(state)).toEqual([]);
    expect(steps).toEqual([]);
  });

  it('a journal that cannot be read is an error, and nothing is rolled back', () => {
    put('a.html', 'old');
    openStaging(root, trace).put('a.html', Buffer.from('new'));
    fs.mkdirSync(path.join(state, 'pl.journal'));
    expect(() => recoverOutput(root, trace)).toThrow(expect.objectContaining({ code: 'EISDIR' }));
    expect(fs.readdirSync(state).sort()).toEqual(['pl.journal', 'pl.stage']);
  });

  it('opening a new staging recovers first, then starts empty', () => {
    put('a.html', 'old');
    openStaging(root, trace).put('stale.html', Buffer.from('from a killed build'));
    const staging = openStaging(root, trace);
    staging.put('b.html', Buffer.from('b'));
    staging.commit([], 'S3');
    expect(tree(root)).toEqual({ 'a.html': 'old', 'b.html': 'b' });
  });
});

describe('finishing what a killed switch left', () => {
  function killedAfterCommit(removed: string[]): void {
    const staging = openStaging(root, (step) => {
      if (step === 'commit pl') throw new Error('killed');
    });
    staging.put('new.html', Buffer.from('new'));
    expect(() => staging.commit(removed, 'S2')).toThrow('killed');
  }

  it('rolls forward a journal whose staging was already removed', () => {
    put('old.html', 'old');
    killedAfterCommit(['old.html']);
    // Killed after the renames and the staging's removal, before the journal's.
    fs.renameSync(path.join(state, 'pl.stage', 'new.html'), path.join(root, 'new.html'));
    fs.rmSync(path.join(state, 'pl.stage'), { recursive: true });
    recoverOutput(root, trace);
    expect(tree(root)).toEqual({ 'new.html': 'new' });
    expect(readStamp(root)).toBe('S2');
    expect(fs.readdirSync(state)).toEqual(['pl.stamp']);
  });

  it('rolls forward a journal whose deletions were partly done', () => {
    put('a.html', 'a');
    put('b.html', 'b');
    killedAfterCommit(['a.html', 'b.html']);
    fs.rmSync(path.join(root, 'a.html'));
    recoverOutput(root, trace);
    expect(tree(root)).toEqual({ 'new.html': 'new' });
    expect(readStamp(root)).toBe('S2');
  });

  it('stops, and deletes nothing, when the staging of a journal cannot be listed', () => {
    // Rolling forward without the staged files would delete the old pages and add none: a mix.
    put('old.html', 'old');
    killedAfterCommit(['old.html']);
    fs.rmSync(path.join(state, 'pl.stage'), { recursive: true });
    fs.writeFileSync(path.join(state, 'pl.stage'), 'not a folder');
    expect(() => recoverOutput(root, trace)).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    expect(tree(root)).toEqual({ 'old.html': 'old' });
    expect(readStamp(root)).toBeUndefined();
    expect(fs.readdirSync(state).sort()).toEqual(['pl.journal', 'pl.stage']);
  });
});

describe('a switch that fails', () => {
  it('leaves no temporary file in the output when a rename fails for another reason', () => {
    // A staged file whose place in the output is a folder holding files: rename fails (EISDIR).
    put('page.html/inner.html', 'in the way');
    const staging = openStaging(root, trace);
    staging.put('page.html', Buffer.from('new'));
    expect(() => staging.commit([], 'S1')).toThrow(expect.objectContaining({ code: 'EISDIR' }));
    expect(Object.keys(tree(root))).toEqual(['page.html/inner.html']);
    expect(fs.readdirSync(root)).toEqual(['page.html']);
  });

  it('can still be discarded after a first build’s commit failed past moving its staging whole', () => {
    // The stamp cannot be written (a folder holding a file is in its place): the commit fails
    // after the staging became the language folder. The build then discards its staging, and
    // must report the commit's error, not one of its own about a staging that is gone.
    fs.mkdirSync(path.join(state, 'pl.stamp', 'in-the-way'), { recursive: true });
    const staging = openStaging(root, trace);
    staging.put('index.html', Buffer.from('new'));
    expect(() => staging.commit([], 'S1')).toThrow();
    expect(fs.existsSync(path.join(state, 'pl.stage'))).toBe(false);
    expect(() => staging.discard()).not.toThrow();
    // The journal stays: the next build finishes the switch once the stamp can be written.
    fs.rmSync(path.join(state, 'pl.stamp'), { recursive: true });
    recoverOutput(root, trace);
    expect(tree(root)).toEqual({ 'index.html': 'new' });
    expect(readStamp(root)).toBe('S1');
  });

  it('closes every file it opens', () => {
    const open = () => fs.readdirSync('/proc/self/fd').length;
    put('a.html', 'a');
    openStaging(root, trace).commit([], 'S0');
    const before = open();
    for (let build = 1; build <= 20; build++) {
      const staging = openStaging(root, trace);
      staging.put('a.html', Buffer.from(`build ${build}`));
      staging.commit([], `S${build}`);
    }
    expect(open()).toBe(before);
    expect(readStamp(root)).toBe('S20');
  });
});
