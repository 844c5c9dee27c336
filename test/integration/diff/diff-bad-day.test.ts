import { describe, expect, it } from 'vitest';
import { badDay } from '../../helpers/bad-day-scenario.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { runCliCaptured } from '../../helpers/run-cli.js';

/**
 * Issue 16's "Done when" for diff: after the bad day (a post and its own featured image
 * deleted for good, a post trashed, five bulk-edited — one also its slug, one also its status),
 * `diff --snapshot` lists exactly those changes. The oracle is what the scenario did on the
 * site, recorded from the site's answers.
 */
interface Change {
  kind: string;
  type: string;
  id: number;
  statusBefore: string | null;
  statusAfter: string | null;
  text: { field: string }[];
  fields: string[];
  removedMedia: { type: string; id: number; title: string }[];
}

describe('diff --snapshot after the bad day', () => {
  const fixture = useSiteAndCache({}, 'cms-mirror-diff-bad-day-');

  it('lists exactly seven: the deleted post naming its image, the trashed post, the five edits', async () => {
    const day = await badDay(fixture.site, fixture.temp.dir);
    const diff = (extra: string[]) =>
      runCliCaptured(['diff', ...day.args, '--snapshot', day.snapshot, ...extra], {
        env: day.env,
      });
    const result = await diff(['--json']);
    expect([result.code, result.stderr]).toEqual([3, '']);
    const report = JSON.parse(result.stdout) as {
      total: number;
      languages: Record<string, Change[]>;
    };
    const changes = report.languages[day.lang] ?? [];
    expect(report.total).toBe(changes.length);

    const listed = changes.map((change) => `${change.kind} ${change.type}/${change.id}`).sort();
    const expected = [
      `deleted posts/${day.deleted.post.id}`,
      `trashed posts/${day.trashed.id}`,
      ...day.edited.map(({ before }) =>
        before.id === day.statusChanged
          ? `unpublished posts/${before.id}`
          : `updated posts/${before.id}`,
      ),
    ].sort();
    expect(listed).toEqual(expected);
    expect(changes).toHaveLength(7);
    const { post, media } = day.deleted;
    const deleted = changes.find((change) => change.kind === 'deleted')!;
    expect(deleted.removedMedia).toEqual([{ type: 'media', id: media.id, title: media.title.raw }]);

    // The human report: seven change lines, one of them the deletion naming its image.
    const text = await diff([]);
    expect(text.code).toBe(3);
    const heads = text.stdout.split('\n').filter((line) => /^ {2}\S/.test(line));
    expect(heads).toHaveLength(7);
    const deletion = heads.filter((line) => line.includes(`posts/${post.id} `));
    expect(deletion).toHaveLength(1);
    expect(deletion[0]).toMatch(/^ {2}deleted /);
    expect(deletion[0]).toContain(`media/${media.id} ${JSON.stringify(media.title.raw)}`);
    expect(text.stdout).not.toMatch(/media removed/);

    const byId = new Map(changes.filter((c) => c.type === 'posts').map((c) => [c.id, c]));
    for (const { before } of day.edited) {
      const change = byId.get(before.id)!;
      expect(change.text.map((text) => text.field).sort()).toEqual(['content', 'excerpt', 'title']);
      expect(change.fields.includes('slug')).toBe(before.id === day.slugChanged);
      expect(change.fields.includes('status')).toBe(before.id === day.statusChanged);
    }
    const unpublished = byId.get(day.statusChanged)!;
    expect([unpublished.statusBefore, unpublished.statusAfter]).toEqual(['publish', 'draft']);
    const trashed = byId.get(day.trashed.id)!;
    expect([trashed.statusBefore, trashed.statusAfter]).toEqual(['publish', 'trash']);
    expect(trashed.fields).toContain('slug');
  }, 120_000);
});
