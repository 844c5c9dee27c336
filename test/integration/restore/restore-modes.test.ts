import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { startReference } from '../../helpers/reference.js';
import {
  cli,
  commonArgs,
  deleteForGood,
  publishedPosts,
  pullBackup,
  sleep,
  trash,
  writesLogged,
} from '../../helpers/restore-site.js';

/**
 * Each mode of `restore` against the reference site over HTTP, with real cache files; the
 * oracle is the site's records (control hooks) and the writes it logged.
 */
describe('cms-mirror restore modes', () => {
  const fixture = useSiteAndCache({}, 'cms-mirror-restore-modes-');

  const item = (id: number) => fixture.site.control.getItem('pl', 'posts', id)!;

  it('--item with --snapshot and from the kept history; --dry-run sends only reads', async () => {
    const { site, temp } = fixture;
    const args = commonArgs(site, temp);
    const [edited, trashed] = publishedPosts(site) as [number, number];
    const before = { edited: item(edited), trashed: item(trashed) };
    await pullBackup(site, temp);
    const snapshot = join(temp.dir, 'before.sqlite');
    expect((await cli(site, ['backup', '--cache', temp.file, '--to', snapshot])).code).toBe(0);
    site.control.updateItem('pl', 'posts', edited, { title: 'Vandalised', slug: 'vandalised' });
    await trash(site, 'posts', trashed);
    expect(item(trashed).slug).toBe(`${before.trashed.slug}__trashed`);
    await pullBackup(site, temp);

    site.control.clearLog();
    const dry = await cli(site, [
      'restore',
      ...args,
      '--item',
      `posts/${edited}`,
      '--snapshot',
      snapshot,
      '--dry-run',
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(new RegExp(`would update +posts/${edited} .*\\(slug, title\\)`));
    expect(writesLogged(site)).toEqual([]);
    expect(item(edited).title).toBe('Vandalised');

    const one = await cli(site, [
      'restore',
      ...args,
      '--item',
      `posts/${edited}`,
      '--snapshot',
      snapshot,
      '--json',
    ]);
    expect(one.code, one.stderr).toBe(0);
    expect([item(edited).title, item(edited).slug]).toEqual([
      before.edited.title,
      before.edited.slug,
    ]);
    expect(item(trashed).status).toBe('trash');

    const fromHistory = await cli(site, [
      'restore',
      ...args,
      '--item',
      `posts/${trashed}`,
      '--json',
    ]);
    expect(fromHistory.code, fromHistory.stderr).toBe(0);
    const report = JSON.parse(fromHistory.stdout);
    expect(report.languages.pl.done).toEqual([
      expect.objectContaining({ kind: 'untrash', type: 'posts', id: trashed }),
    ]);
    expect([item(trashed).status, item(trashed).slug]).toEqual(['publish', before.trashed.slug]);
    expect(item(trashed).id).toBe(trashed);
  }, 120_000);

  it('--item --revision rolls title, content and excerpt back, nothing else', async () => {
    const { site, temp } = fixture;
    const args = commonArgs(site, temp);
    const withRevisions = publishedPosts(site).find((id) =>
      site.control.listRevisions('pl', 'posts', id).some((r) => r.kind === 'revision'),
    )!;
    const revision = site.control
      .listRevisions('pl', 'posts', withRevisions)
      .find((r) => r.kind === 'revision')!;
    site.control.updateItem('pl', 'posts', withRevisions, {
      title: 'Later title',
      content: '<p>Later</p>',
      slug: 'kept-slug',
    });
    await pullBackup(site, temp);
    const rolled = await cli(site, [
      'restore',
      ...args,
      '--item',
      `posts/${withRevisions}`,
      '--revision',
      String(revision.id),
    ]);
    expect(rolled.code, rolled.stderr).toBe(0);
    const now = item(withRevisions);
    expect([now.title, now.content, now.excerpt]).toEqual([
      revision.title,
      revision.content,
      revision.excerpt,
    ]);
    expect(now.slug).toBe('kept-slug');
  }, 120_000);

  it('--deleted-since puts back what was trashed or deleted after TIME, and only that', async () => {
    const { site, temp } = fixture;
    const args = commonArgs(site, temp);
    const [gone, trashed, edited] = publishedPosts(site) as [number, number, number];
    const goneBefore = item(gone);
    await pullBackup(site, temp);
    await sleep(1100);
    const since = new Date().toISOString();
    await sleep(1100);
    await deleteForGood(site, 'posts', gone);
    await trash(site, 'posts', trashed);
    site.control.updateItem('pl', 'posts', edited, { title: 'Edited on purpose' });
    await pullBackup(site, temp);

    const restored = await cli(site, ['restore', ...args, '--deleted-since', since, '--json']);
    expect(restored.code, restored.stderr).toBe(0);
    expect(item(trashed).status).toBe('publish');
    expect(item(edited).title).toBe('Edited on purpose');
    const copies = site.control
      .listItems('pl', 'posts')
      .filter((post) => post.title === goneBefore.title && post.slug === goneBefore.slug);
    expect(copies).toHaveLength(1);
    expect([copies[0]!.content, copies[0]!.status, copies[0]!.dateGmt]).toEqual([
      goneBefore.content,
      goneBefore.status,
      goneBefore.dateGmt,
    ]);

    site.control.clearLog();
    const again = await cli(site, ['restore', ...args, '--deleted-since', since, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(writesLogged(site)).toEqual([]);
    expect(JSON.parse(again.stdout).languages.pl.done).toEqual([]);

    // A crash between the create and its record: the copy is recognised, not made twice.
    const db = new Database(temp.file);
    db.exec('DELETE FROM restore_map');
    db.close();
    site.control.clearLog();
    const resumed = await cli(site, ['restore', ...args, '--deleted-since', since, '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(writesLogged(site)).toEqual([]);
    expect(JSON.parse(resumed.stdout).languages.pl.done).toEqual([
      expect.objectContaining({ kind: 'adopt', type: 'posts', id: gone, newId: copies[0]!.id }),
    ]);
  }, 120_000);

  it('--as-of lists posts created since and trashes them with --remove-new', async () => {
    const { site, temp } = fixture;
    const args = commonArgs(site, temp);
    await pullBackup(site, temp);
    await sleep(1100);
    const asOf = new Date().toISOString();
    await sleep(1100);
    const [added] = site.control.createItems('pl', 'posts', 1, { title: 'Spam post' });
    await pullBackup(site, temp);
    const listed = await cli(site, ['restore', ...args, '--as-of', asOf]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`left alone (new)     posts/${added!.id} "Spam post"`);
    expect(item(added!.id).status).toBe('publish');
    const removed = await cli(site, ['restore', ...args, '--as-of', asOf, '--remove-new']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(item(added!.id).status).toBe('trash');
  }, 120_000);

  async function refused(args: string[], pattern: RegExp): Promise<void> {
    const { site } = fixture;
    site.control.clearLog();
    const result = await cli(site, ['restore', ...args]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(pattern);
    expect(writesLogged(site)).toEqual([]);
    expect(site.requests).toEqual([]);
  }

  it('refuses bad input in one line, exit 2, nothing sent', async () => {
    const { site, temp } = fixture;
    const args = commonArgs(site, temp);
    const plain = await cli(site, ['pull', ...args, '--json']);
    expect(plain.code).toBe(0);
    await refused([...args, '--as-of', '1h'], /without --backup/);
    await pullBackup(site, temp);
    const [post] = publishedPosts(site) as [number];
    await refused([...args, '--item', 'posts/999999'], /posts\/999999: no such item/);
    await refused(
      [...args, '--item', `posts/${post}`, '--revision', '999999'],
      /--revision 999999: the backup .* holds no revision/,
    );
    await refused(
      [...args, '--as-of', '2001-01-01T00:00:00Z'],
      /--as-of 2001-01-01T00:00:00.000Z is before the cache's first --backup pull/,
    );
    await refused([...args, '--as-of', 'yesterday'], /--as-of: expected an ISO 8601 time/);
    await refused([...args, '--item', 'widgets/3'], /--item: expected a collection and an id/);
    await refused([...args], /give exactly one of/);

    const other = await startReference({ seed: 'another-site' });
    try {
      const otherTemp = { ...temp, file: join(temp.dir, 'other.sqlite') };
      await pullBackup(other, otherTemp);
      const elsewhere = args.map((arg) => (arg === site.url ? other.url : arg));
      other.control.clearLog();
      const wrongSite = await cli(other, [
        'restore',
        ...elsewhere,
        '--deleted-since',
        new Date().toISOString(),
      ]);
      expect(wrongSite.code, wrongSite.stderr).toBe(2);
      expect(wrongSite.stderr).toMatch(
        /mirrors .*, not .*: restore puts content back on the site it was pulled from/,
      );
      expect(writesLogged(other)).toEqual([]);
      await refused(
        [...args, '--item', `posts/${post}`, '--snapshot', otherTemp.file],
        /the snapshot .* is of .*: restore puts back a state of the same site/,
      );
    } finally {
      await other.close();
    }
  }, 120_000);
});
