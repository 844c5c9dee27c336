/**
 * The switch from one build's output to the next (staging, journal, recovery), driven step by
 * step as a killed build leaves it: every file staged but no journal, a journal whose switch
 * stopped half-way, a journal with nothing left but the deletions.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStaging, readStamp, recoverOutput } from '../../../src/site/output-switch.js';

let tmp: string;
let root: string;
let state: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-switch-'));
  root = path.join(tmp, 'pl');
  state = path.join(tmp, '.cms-mirror');
  fs.mkdirSync(path.join(root, 'a'), { recursive: true });
  fs.writeFileSync(path.join(root, 'a/index.html'), 'old A');
  fs.writeFileSync(path.join(root, 'gone.html'), 'old gone');
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

const OLD = { 'a/index.html': 'old A', 'gone.html': 'old gone' };
const NEW = { 'a/index.html': 'new A', 'b/c/index.html': 'new C' };

function stageNew(): ReturnType<typeof openStaging> {
  const staging = openStaging(root, () => undefined);
  staging.put('a/index.html', Buffer.from('new A'));
  staging.put('b/c/index.html', Buffer.from('new C'));
  return staging;
}

describe('the output switch', () => {
  it('commits: staged files replace the output, the removed go, the stamp is written', () => {
    stageNew().commit(['gone.html'], 'S2');
    expect(tree(root)).toEqual(NEW);
    expect(readStamp(root)).toBe('S2');
    expect(fs.readdirSync(state)).toEqual(['pl.stamp']);
  });

  it('rolls back staging left without a journal (a build killed before its commit)', () => {
    stageNew();
    expect(tree(root)).toEqual(OLD);
    recoverOutput(root, () => undefined);
    expect(tree(root)).toEqual(OLD);
    expect(fs.readdirSync(state)).toEqual([]);
    expect(readStamp(root)).toBeUndefined();
  });

  it('rolls forward a journal whose switch was killed half-way', () => {
    // Kill the switch after its first rename: the trace step throws where a kill would land.
    let switched = 0;
    const staging = openStaging(root, (step) => {
      if (step.startsWith('switch ') && ++switched === 1) throw new Error('killed');
    });
    staging.put('a/index.html', Buffer.from('new A'));
    staging.put('b/c/index.html', Buffer.from('new C'));
    expect(() => staging.commit(['gone.html'], 'S2')).toThrow('killed');
    // Half switched: one new file in place, the journal still there.
    expect(fs.readdirSync(state).sort()).toEqual(['pl.journal', 'pl.stage']);
    expect(tree(root)).not.toEqual(OLD);
    expect(tree(root)).not.toEqual(NEW);

    recoverOutput(root, () => undefined);
    expect(tree(root)).toEqual(NEW);
    expect(readStamp(root)).toBe('S2');
    expect(fs.readdirSync(state)).toEqual(['pl.stamp']);
  });

  it('finishes the deletions of a journal whose renames were all done', () => {
    const staging = openStaging(root, (step) => {
      if (step === 'switched pl') throw new Error('killed');
    });
    staging.put('a/index.html', Buffer.from('new A'));
    // Killed at the very end: redoing the journal changes nothing more.
    expect(() => staging.commit(['gone.html'], 'S2')).toThrow('killed');
    recoverOutput(root, () => undefined);
    expect(tree(root)).toEqual({ 'a/index.html': 'new A' });
    expect(fs.readdirSync(state)).toEqual(['pl.stamp']);
  });

  it('never deletes outside the root, whatever a journal lists', () => {
    const victim = path.join(tmp, 'victim.txt');
    fs.writeFileSync(victim, 'keep me');
    openStaging(root, () => undefined).commit(['../victim.txt', victim, 'a/../../victim.txt'], 'S');
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep me');
  });
});

describe('the output switch, moving directories whole', () => {
  it('a first build: the language folder is made of exactly the staged files', () => {
    fs.rmSync(root, { recursive: true });
    const steps: string[] = [];
    const staging = openStaging(root, (step) => steps.push(step));
    staging.put('index.html', Buffer.from('home'));
    staging.put('b/c/index.html', Buffer.from('new C'));
    staging.put('b/d/index.html', Buffer.from('new D'));
    staging.commit([], 'S1');
    expect(tree(root)).toEqual({
      'index.html': 'home',
      'b/c/index.html': 'new C',
      'b/d/index.html': 'new D',
    });
    // One move for the whole folder, none per file.
    expect(steps.filter((step) => step.startsWith('switch '))).toEqual(['switch pl ./']);
    expect(fs.readdirSync(state)).toEqual(['pl.stamp']);
  });

  it('a new folder in an existing output is moved whole, with every file below it', () => {
    const steps: string[] = [];
    const staging = openStaging(root, (step) => steps.push(step));
    staging.put('a/index.html', Buffer.from('new A'));
    staging.put('b/c/index.html', Buffer.from('new C'));
    staging.put('b/c/feed.xml', Buffer.from('feed C'));
    staging.put('b/index.html', Buffer.from('new B'));
    staging.commit(['gone.html'], 'S2');
    expect(tree(root)).toEqual({
      'a/index.html': 'new A',
      'b/c/index.html': 'new C',
      'b/c/feed.xml': 'feed C',
      'b/index.html': 'new B',
    });
    expect(steps.filter((step) => step.startsWith('switch '))).toEqual([
      'switch pl a/index.html',
      'switch pl b/',
    ]);
  });

  it('never moves a folder over one that holds files, nor through a link leading outside', () => {
    const outside = path.join(tmp, 'outside');
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(root, 'link'));
    const staging = openStaging(root, () => undefined);
    staging.put('a/new.html', Buffer.from('new'));
    staging.put('link/index.html', Buffer.from('escaped'));
    expect(() => staging.commit([], 'S2')).toThrow(/outside/);
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.readFileSync(path.join(root, 'a/index.html'), 'utf8')).toBe('old A');
  });
});
