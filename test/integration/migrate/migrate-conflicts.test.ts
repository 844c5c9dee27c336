import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { startReferenceSite, type ReferenceSite } from '../../../src/reference/index.js';
import type { StoredItem } from '../../../src/reference/index.js';
import { credentialEnv, migrateArgs, unpacedPipeline } from '../../helpers/cli-args.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import { useSite, useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { mirrorLanguageInto } from '../../helpers/push-site-fixture.js';

/**
 * Migrating into a target that already holds a person's items with the slugs and dates of
 * source items (the reference's `overlapWith`), from a source whose drafts have no slug.
 * What the target holds is read from its own records (`control.listItems`).
 */
type Report = {
  created: Record<string, number>;
  recovered: number;
  adopted: number;
  stopped: boolean;
  conflicts: { type: string; sourceId: number; slug: string; targetIds: number[] }[];
  failed: unknown[];
  warnings: string[];
};

const TYPES = ['media', 'pages', 'posts'] as const;

describe('migrate into a target with content of its own', () => {
  let source: ReferenceSite;
  let target: ReferenceSite;
  let temp: TempCache;
  let before: Record<(typeof TYPES)[number], StoredItem[]>;

  const fixture = useSiteAndCache({ languages: ['pl'], sluglessDrafts: true });
  const targetFixture = useSite({
    ...{ languages: ['pl'], posts: 0, pages: 0, media: 0, seed: 'target' },
    overlapWith: 'cms-mirror',
  });

  beforeEach(async () => {
    ({ site: source, temp } = fixture);
    target = targetFixture.site;
    await mirrorLanguageInto(source, 'pl', temp.file, { media: true });
    before = snapshot();
  });

  const snapshot = () =>
    Object.fromEntries(TYPES.map((type) => [type, target.control.listItems('pl', type)])) as Record<
      (typeof TYPES)[number],
      StoredItem[]
    >;
  const run = (...extra: string[]) =>
    runCliCaptured(
      [...migrateArgs(temp.file, target), '--pipeline', unpacedPipeline(temp.dir), ...extra],
      { env: credentialEnv(target), cwd: temp.dir },
    );
  const writes = () => target.requests.filter((entry) => entry.method !== 'GET');
  const sourceCount = (type: (typeof TYPES)[number]) =>
    source.control
      .listItems('pl', type)
      .filter((item) => item.status !== 'trash' && item.status !== 'auto-draft').length;
  /** The person's items are exactly as they were. */
  const expectUntouched = () => {
    for (const type of TYPES) {
      for (const item of before[type])
        expect(target.control.getItem('pl', type, item.id), `${type} ${item.id}`).toEqual(item);
    }
  };

  it('by default lists every conflict and stops before its first write (exit 3)', async () => {
    const result = await run('--json');
    expect(result.code, result.stderr).toBe(3);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.stopped).toBe(true);
    expect(report.recovered).toBe(0);
    const ownIds = TYPES.flatMap((type) => before[type].map((item) => item.id)).sort();
    expect(report.conflicts.flatMap((c) => c.targetIds).sort()).toEqual(ownIds);
    expect(writes()).toEqual([]);
    expectUntouched();
    const text = await run();
    expect(text.code).toBe(3);
    expect(text.stderr).toMatch(/^conflict: pages \d+ \(.+\): the target already has pages \d+/m);
    expect(text.stderr).toContain('--on-conflict');
  });

  it('--dry-run reads the target and says exactly what the run will do', async () => {
    const dry = await run('--dry-run', '--on-conflict', 'beside');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.match(/^conflict /gm)).toHaveLength(4);
    const plan = /^plan: create (\d+) media, (\d+) pages, (\d+) posts;/m.exec(dry.stdout);
    expect(plan).not.toBeNull();
    expect(writes()).toEqual([]);
    const result = await run('--on-conflict', 'beside', '--json');
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect([report.created.media, report.created.pages, report.created.posts]).toEqual(
      plan!.slice(1).map(Number),
    );
  });

  it('--on-conflict beside creates every source item once beside the own items, which stay as they were', async () => {
    const result = await run('--on-conflict', 'beside', '--json');
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.failed).toEqual([]);
    for (const type of TYPES) {
      expect(report.created[type], type).toBe(sourceCount(type));
      expect(target.control.listItems('pl', type)).toHaveLength(
        sourceCount(type) + before[type].length,
      );
    }
    expectUntouched();
    // Slugless drafts are still slugless and were created once.
    const drafts = target.control.listItems('pl', 'posts').filter((item) => item.slug === '');
    expect(drafts.length).toBeGreaterThan(0);
    expect(drafts.length).toBe(
      source.control.listItems('pl', 'posts').filter((item) => item.slug === '').length,
    );
  });

  it('--on-conflict skip leaves the conflicting source items out; adopt takes the own items unchanged', async () => {
    const skipped = JSON.parse((await run('--on-conflict', 'skip', '--json')).stdout) as Report;
    expect(skipped.conflicts).toHaveLength(4);
    expect(skipped.created.pages).toBe(sourceCount('pages') - 2);
    expect(skipped.created.posts).toBe(sourceCount('posts') - 1);
    expectUntouched();
    const adopted = JSON.parse((await run('--on-conflict', 'adopt', '--json')).stdout) as Report;
    expect(adopted.adopted).toBe(4);
    expect(adopted.created).toEqual({ media: 0, pages: 0, posts: 0 });
    for (const type of TYPES)
      expect(target.control.listItems('pl', type)).toHaveLength(sourceCount(type));
    expectUntouched();
  });

  it('a cache from before the run (lost id_map) creates nothing twice, slugless drafts included', async () => {
    const copy = join(temp.dir, 'before.sqlite');
    copyFileSync(temp.file, copy);
    const first = await run('--on-conflict', 'beside', '--json');
    expect(first.code, first.stderr).toBe(0);
    const after = snapshot();
    copyFileSync(copy, temp.file);
    const again = await run('--on-conflict', 'beside', '--json');
    expect(again.code, again.stderr).toBe(0);
    const report = JSON.parse(again.stdout) as Report;
    expect(report.created).toEqual({ media: 0, pages: 0, posts: 0 });
    expect(report.recovered).toBe(
      sourceCount('media') + sourceCount('pages') + sourceCount('posts'),
    );
    for (const type of TYPES)
      expect(target.control.listItems('pl', type).map((item) => item.id)).toEqual(
        after[type].map((item) => item.id),
      );
    expectUntouched();
  });
});

describe('migrate: credentials and terms', () => {
  let source: ReferenceSite;
  let target: ReferenceSite;
  let temp: TempCache;
  const fixture = useSiteAndCache({ languages: ['pl'], posts: 12, pages: 2, media: 2 });
  const targetFixture = useSite({ languages: ['pl'], posts: 0, pages: 0, media: 0, seed: 't' });
  beforeEach(async () => {
    ({ site: source, temp } = fixture);
    target = targetFixture.site;
    await mirrorLanguageInto(source, 'pl', temp.file, { media: true });
  });
  const args = () => [...migrateArgs(temp.file, target), '--pipeline', unpacedPipeline(temp.dir)];

  it('a wrong application password: exit 2 with the message pull gives, nothing sent', async () => {
    const env = credentialEnv({
      credentials: { user: target.credentials.user, password: 'wrong wrong wrong' },
    });
    for (const extra of [[], ['--dry-run']]) {
      const result = await runCliCaptured([...args(), ...extra], { env, cwd: temp.dir });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(
        /the site refused the credentials in CMS_USER\/CMS_APP_PASSWORD .*create a new application password/,
      );
    }
    const pulled = await runCliCaptured(
      ['pull', '--site', target.url, '--lang', 'pl', '--cache', join(temp.dir, 'p.sqlite')],
      { env, cwd: temp.dir },
    );
    expect(pulled.code).toBe(2);
    const message = (text: string) => /the site refused[^(]*/.exec(text)?.[0];
    expect(message(pulled.stderr)).toBeDefined();
    expect(message(pulled.stderr)).toBe(
      message((await runCliCaptured(args(), { env, cwd: temp.dir })).stderr),
    );
    expect(target.requests.filter((entry) => entry.method !== 'GET')).toEqual([]);
    expect(target.control.listItems('pl', 'posts')).toEqual([]);
  });

  it('an unknown --on-conflict policy: one line, exit 2, nothing sent', async () => {
    const result = await runCliCaptured([...args(), '--on-conflict', 'merge'], {
      env: credentialEnv(target),
      cwd: temp.dir,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'cms-mirror: --on-conflict: expected one of stop, skip, beside, adopt, got "merge"\n',
    );
    expect(target.requests).toEqual([]);
  });

  it('says once which term ids were dropped (texts in --json); --keep-terms keeps them', async () => {
    const result = await runCliCaptured([...args(), '--json'], {
      env: credentialEnv(target),
      cwd: temp.dir,
    });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    const terms = report.warnings.filter((warning) => /term ids/.test(warning));
    expect(terms).toHaveLength(1);
    const used = new Set(
      source.control.listItems('pl', 'posts').flatMap((item) => item.categories),
    );
    for (const id of used) expect(terms[0]).toMatch(new RegExp(`category ids [\\d, ]*\\b${id}\\b`));
    expect(terms[0]).toMatch(/^posts: .*tag ids \d/);

    const second = await startReferenceSite({
      languages: ['pl'],
      posts: 0,
      pages: 0,
      media: 0,
      seed: 'u',
    });
    try {
      const kept = await runCliCaptured(
        [
          ...migrateArgs(temp.file, second),
          '--pipeline',
          unpacedPipeline(temp.dir),
          '--keep-terms',
          '--json',
        ],
        { env: credentialEnv(second), cwd: temp.dir },
      );
      expect(kept.code, kept.stderr).toBe(0);
      expect(
        (JSON.parse(kept.stdout) as Report).warnings.filter((w) => /term ids/.test(w)),
      ).toEqual([]);
      const byTitle = new Map(
        second.control.listItems('pl', 'posts').map((item) => [item.title, item]),
      );
      for (const item of source.control.listItems('pl', 'posts')) {
        if (item.status === 'trash') continue;
        expect(byTitle.get(item.title)?.categories, item.title).toEqual(item.categories);
        expect(byTitle.get(item.title)?.tags, item.title).toEqual(item.tags);
      }
    } finally {
      await second.close();
    }
  });
});
