/**
 * The build's "can we skip?" decisions as pure functions: each condition that must hold for a
 * skip is taken away once, and the decision must then say "build".
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isQuiet,
  languageUnchanged,
  mayTrustRecord,
  modelUnchanged,
  outputHoldsBuild,
  pullChangedNothing,
  sameThemeAndFiles,
  topLevelIntact,
} from '../../../src/site/freshness.js';
import type { BuildManifest } from '../../../src/site/build-manifest.js';
import type { SavedState } from '../../../src/store/build-state-repo.js';

/** A complete record of the current versions (manifest 1, build 1), built at 10:00. */
const STATE: SavedState = {
  manifestVersion: 1,
  buildVersion: '1',
  templatesHash: 'theme-a',
  modelDigest: 'model-a',
  siteDigest: 'site-a',
  builtAt: '2026-01-01T10:00:00.000Z',
  sourcesAt: '2026-01-01T09:59:00.000Z',
  writingSince: null,
  transformVersion: 'tv-1',
  pathsDigest: 'paths-a',
};

const MANIFEST: BuildManifest = {
  version: 1,
  buildVersion: '1',
  templatesHash: 'theme-a',
  modelDigest: 'model-a',
  files: {
    'index.html': { hash: 'h1', input: 'i1', bytes: 1 },
    '2024/a/index.html': { hash: 'h2', input: 'i2', bytes: 2 },
  },
};

const ALL_FILES = new Set(['index.html', '2024/a/index.html', 'extra.html']);

describe('isQuiet', () => {
  const quietChanges = {
    itemsAt: '2026-01-01T09:58:00.000Z',
    transformedAt: '2026-01-01T09:59:30.000Z',
  };

  it('is quiet when nothing was written since the build read and ended', () => {
    expect(isQuiet(STATE, 'tv-1', quietChanges)).toBe(true);
    expect(isQuiet(STATE, 'tv-1', { itemsAt: undefined, transformedAt: undefined })).toBe(true);
  });

  it('is not quiet without a complete record of this version', () => {
    expect(isQuiet(undefined, 'tv-1', quietChanges)).toBe(false);
    expect(isQuiet({ ...STATE, manifestVersion: 0 }, 'tv-1', quietChanges)).toBe(false);
    expect(isQuiet({ ...STATE, buildVersion: '0' }, 'tv-1', quietChanges)).toBe(false);
    expect(isQuiet({ ...STATE, sourcesAt: null }, 'tv-1', quietChanges)).toBe(false);
    expect(isQuiet({ ...STATE, pathsDigest: null }, 'tv-1', quietChanges)).toBe(false);
    expect(isQuiet({ ...STATE, writingSince: STATE.builtAt }, 'tv-1', quietChanges)).toBe(false);
  });

  it('is not quiet under another transform key', () => {
    expect(isQuiet(STATE, 'tv-2', quietChanges)).toBe(false);
  });

  it('counts an item written at (or after) the moment the build read as a change', () => {
    expect(isQuiet(STATE, 'tv-1', { ...quietChanges, itemsAt: STATE.sourcesAt! })).toBe(false);
    expect(isQuiet(STATE, 'tv-1', { ...quietChanges, itemsAt: '2026-01-01T11:00:00.000Z' })).toBe(
      false,
    );
  });

  it('counts a transform output written after the build ended as a change', () => {
    expect(
      isQuiet(STATE, 'tv-1', { ...quietChanges, transformedAt: '2026-01-01T10:00:00.001Z' }),
    ).toBe(false);
    expect(isQuiet(STATE, 'tv-1', { ...quietChanges, transformedAt: STATE.builtAt })).toBe(false);
  });
});

describe('languageUnchanged', () => {
  const now = { siteDigest: 'site-a', templatesHash: 'theme-a' };
  it('needs quiet, the same site digest and the same theme', () => {
    expect(languageUnchanged(true, STATE, now)).toBe(true);
    expect(languageUnchanged(false, STATE, now)).toBe(false);
    expect(languageUnchanged(true, undefined, now)).toBe(false);
    expect(languageUnchanged(true, STATE, { ...now, siteDigest: 'site-b' })).toBe(false);
    expect(languageUnchanged(true, STATE, { ...now, templatesHash: 'theme-b' })).toBe(false);
  });
});

describe('mayTrustRecord', () => {
  const run = { force: false, pulled: true };
  it('trusts a completed record in a run that pulled, unforced', () => {
    expect(mayTrustRecord(MANIFEST, STATE, run)).toBe(true);
    expect(mayTrustRecord(undefined, STATE, run)).toBe(false);
    expect(mayTrustRecord(MANIFEST, undefined, run)).toBe(false);
    expect(mayTrustRecord(MANIFEST, { ...STATE, writingSince: STATE.builtAt }, run)).toBe(false);
    expect(mayTrustRecord(MANIFEST, STATE, { ...run, force: true })).toBe(false);
    expect(mayTrustRecord(MANIFEST, STATE, { ...run, pulled: false })).toBe(false);
  });
});

describe('the files and the theme of the last build', () => {
  const RECORD = new Map(Object.entries(MANIFEST.files));

  it('sameThemeAndFiles: a previous build, its theme, and every recorded file on disk (more is fine)', () => {
    expect(sameThemeAndFiles(MANIFEST, 'theme-a', RECORD, ALL_FILES)).toBe(true);
    expect(sameThemeAndFiles(undefined, 'theme-a', RECORD, ALL_FILES)).toBe(false);
    expect(sameThemeAndFiles(MANIFEST, 'theme-b', RECORD, ALL_FILES)).toBe(false);
    expect(sameThemeAndFiles(MANIFEST, 'theme-a', RECORD, new Set(['2024/a/index.html']))).toBe(
      false,
    );
    expect(sameThemeAndFiles(MANIFEST, 'theme-a', RECORD, new Set(['index.html']))).toBe(false);
  });

  it('sameThemeAndFiles: the record standing for the disk is not walked, but its theme still counts', () => {
    const unreadable = {
      ...RECORD,
      size: RECORD.size,
      get: (file: string) => RECORD.get(file),
      has: (file: string) => RECORD.has(file),
      keys: (): Iterable<string> => {
        throw new Error('the record was walked');
      },
      [Symbol.iterator]: () => RECORD[Symbol.iterator](),
    };
    expect(sameThemeAndFiles(MANIFEST, 'theme-a', unreadable, unreadable)).toBe(true);
    expect(sameThemeAndFiles(MANIFEST, 'theme-b', unreadable, unreadable)).toBe(false);
  });

  it('modelUnchanged compares the plan digest with the last build', () => {
    expect(modelUnchanged(MANIFEST, 'model-a')).toBe(true);
    expect(modelUnchanged(MANIFEST, 'model-b')).toBe(false);
  });
});

describe('pullChangedNothing', () => {
  it('is true only when the pull counted and changed neither an item nor the site', () => {
    expect(pullChangedNothing({ items: 0, site: false })).toBe(true);
    expect(pullChangedNothing({ items: 1, site: false })).toBe(false);
    expect(pullChangedNothing({ items: 0, site: true })).toBe(false);
    expect(pullChangedNothing(undefined)).toBe(false);
  });
});

describe('probes of the output folder', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-fresh-'));
  });
  afterEach(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('topLevelIntact: every top-level name is still there', () => {
    const outDir = path.join(tmp, 'pl');
    expect(topLevelIntact(outDir, ['index.html'])).toBe(false);
    fs.mkdirSync(path.join(outDir, '2024'), { recursive: true });
    fs.writeFileSync(path.join(outDir, 'index.html'), '');
    expect(topLevelIntact(outDir, ['index.html', '2024'])).toBe(true);
    expect(topLevelIntact(outDir, ['index.html', '2024', 'pagefind'])).toBe(false);
  });

  it('outputHoldsBuild: a folder never built holds no build', () => {
    expect(outputHoldsBuild(path.join(tmp, 'pl'), STATE)).toBe(false);
  });
});
