import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { credentialEnv, unpacedPipeline } from '../../helpers/cli-args.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { callApi, startReference, type ReferenceSite } from '../../helpers/reference.js';
import { runCliCaptured, type CliResult } from '../../helpers/run-cli.js';

/**
 * `diff` end to end against the reference site over HTTP, with real cache files: a backup
 * pull, a snapshot, then on the site one post deleted for good, one trashed and five edited.
 * The oracle is that list of seven, made here through the site's control routes and REST
 * calls; nothing is taken from src/ rules.
 */
interface Change {
  kind: string;
  type: string;
  id: number;
  title: string;
  text: { field: string; lines: { op: string; text: string }[] }[];
  fields: string[];
}
interface Report {
  total: number;
  languages: Record<string, Change[]>;
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

describe('cms-mirror diff', () => {
  const fixture = useSiteAndCache({}, 'cms-mirror-diff-');

  function common(site: ReferenceSite, cache: string): string[] {
    const pipeline = unpacedPipeline(fixture.temp.dir);
    return ['--pipeline', pipeline, '--site', site.url, '--lang', 'pl', '--cache', cache];
  }

  async function cli(args: string[], site = fixture.site): Promise<CliResult> {
    return runCliCaptured(args, { env: credentialEnv(site) });
  }

  async function pullBackup(site: ReferenceSite, cache: string): Promise<void> {
    const pulled = await cli(['pull', ...common(site, cache), '--backup', '--json'], site);
    expect(pulled.stderr).not.toMatch(/internal error/);
    expect(pulled.code).toBe(0);
  }

  function published(site: ReferenceSite): number[] {
    return site.control
      .listItems('pl', 'posts')
      .filter((item) => item.status === 'publish' && item.password === '')
      .map((item) => item.id);
  }

  /** The seven changes made on the site, as `kind posts/id`, sorted. */
  async function changeSite(site: ReferenceSite): Promise<{ expected: string[]; edited: number }> {
    const [deleted, trashed, ...rest] = published(site) as [number, number, ...number[]];
    const edited = rest.slice(0, 5);
    expect(edited).toHaveLength(5);
    const force = await callApi(site, 'pl', `/cms/v2/posts/${deleted}`, {
      method: 'DELETE',
      auth: true,
      query: { force: true },
    });
    expect(force.status).toBe(200);
    const trash = await callApi(site, 'pl', `/cms/v2/posts/${trashed}`, {
      method: 'DELETE',
      auth: true,
    });
    expect(trash.status).toBe(200);
    for (const id of edited) {
      site.control.updateItem('pl', 'posts', id, {
        title: `Bulk edited ${id}`,
        content: `<p>Rewritten by the bulk edit of ${id}.</p>`,
      });
    }
    const expected = [
      `deleted posts/${deleted}`,
      `trashed posts/${trashed}`,
      ...edited.map((id) => `updated posts/${id}`),
    ].sort();
    return { expected, edited: edited[0]! };
  }

  function listed(result: CliResult): string[] {
    const report = JSON.parse(result.stdout) as Report;
    const changes = report.languages['pl'] ?? [];
    expect(report.total).toBe(changes.length);
    return changes.map((change) => `${change.kind} ${change.type}/${change.id}`).sort();
  }

  it('lists exactly the seven changes against a snapshot, since a time and live; nothing once they are pulled', async () => {
    const { site, temp } = fixture;
    const args = common(site, temp.file);
    const snapshot = join(temp.dir, 'before.sqlite');
    await pullBackup(site, temp.file);
    expect((await cli(['backup', '--cache', temp.file, '--to', snapshot])).code).toBe(0);
    await sleep(20);
    const between = new Date().toISOString();
    await sleep(20);

    // Nothing changed yet: exit 0 everywhere.
    for (const mode of [['--snapshot', snapshot], ['--since', between], ['--live']]) {
      const same = await cli(['diff', ...args, ...mode]);
      expect([same.code, same.stderr]).toEqual([0, '']);
      expect(same.stdout).toContain('no difference');
    }

    const { expected, edited } = await changeSite(site);
    const live = await cli(['diff', ...args, '--live', '--json']);
    expect([live.code, live.stderr]).toEqual([3, '']);
    expect(listed(live)).toEqual(expected);

    await pullBackup(site, temp.file);
    const against = await cli(['diff', ...args, '--snapshot', snapshot, '--json']);
    expect([against.code, against.stderr]).toEqual([3, '']);
    expect(listed(against)).toEqual(expected);
    const since = await cli(['diff', ...args, '--since', between, '--json']);
    expect([since.code, since.stderr]).toEqual([3, '']);
    expect(listed(since)).toEqual(expected);

    // The text report: one line per change and a line diff of the edited text.
    const text = await cli(['diff', ...args, '--snapshot', snapshot]);
    expect(text.code).toBe(3);
    expect(text.stdout).toContain(`updated       posts/${edited} "Bulk edited ${edited}"`);
    expect(text.stdout).toContain(`+ Bulk edited ${edited}`);
    expect(text.stdout).toContain(`+ <p>Rewritten by the bulk edit of ${edited}.</p>`);
    expect(text.stdout).toMatch(/7 change\(s\): 1 deleted, 1 trashed, 5 updated/);

    // Once pulled, the cache and the site agree, and nothing changed after the second pull.
    await sleep(20);
    const after = new Date().toISOString();
    for (const mode of [['--live'], ['--since', after]]) {
      const none = await cli(['diff', ...args, ...mode, '--json']);
      expect([none.code, listed(none)]).toEqual([0, []]);
    }
  }, 240_000);

  async function refused(extra: string[], pattern: RegExp): Promise<void> {
    const result = await cli(['diff', ...extra]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(pattern);
  }

  it('refuses a cache pulled without --backup (exit 2, one line)', async () => {
    const { site, temp } = fixture;
    const plain = await cli(['pull', ...common(site, temp.file), '--json']);
    expect(plain.code).toBe(0);
    await refused([...common(site, temp.file), '--live'], /without --backup/);
    await refused([...common(site, temp.file), '--since', '1h'], /without --backup/);
  });

  it('refuses a snapshot of another site (exit 2, one line)', async () => {
    const { site, temp } = fixture;
    await pullBackup(site, temp.file);
    const other = await startReference();
    try {
      const otherCache = join(temp.dir, 'other.sqlite');
      const otherSnapshot = join(temp.dir, 'other-snapshot.sqlite');
      await pullBackup(other, otherCache);
      expect((await cli(['backup', '--cache', otherCache, '--to', otherSnapshot])).code).toBe(0);
      await refused(
        [...common(site, temp.file), '--snapshot', otherSnapshot],
        /is of http:\/\/127\.0\.0\.1:\d+.*diff compares two states of one site/,
      );
    } finally {
      await other.close();
    }
  });

  it('refuses a time before the first backup pull, a bad TIME and bad flags (exit 2, one line)', async () => {
    const { site, temp } = fixture;
    const args = common(site, temp.file);
    const before = new Date(Date.now() - 60_000).toISOString();
    await pullBackup(site, temp.file);
    await refused([...args, '--since', before], /before the cache's first --backup pull/);
    await refused(
      [...args, '--since', '2026-11-24T06:00:00'],
      /--since: expected an ISO 8601 time/,
    );
    await refused([...args, '--since', 'yesterday'], /--since: expected an ISO 8601 time/);
    await refused([...args], /exactly one of --snapshot FILE, --since TIME or --live/);
    await refused([...args, '--live', '--since', '1h'], /exactly one of/);
    await refused([...args, '--snapshot', join(temp.dir, 'missing.sqlite')], /no such file/);
    await refused([...args, '--lang', 'de', '--live'], /holds no items of language de/);
    const anonymous = await runCliCaptured(['diff', ...args, '--live']);
    expect(anonymous.code).toBe(2);
    expect(anonymous.stderr).toMatch(/signed-in users/);
  });
});
