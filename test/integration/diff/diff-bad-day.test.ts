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
}

describe('diff --snapshot after the bad day', () => {
  const fixture = useSiteAndCache({}, 'cms-mirror-diff-bad-day-');

  it('lists the deleted post and its image, the trashed post and the five edits, nothing else', async () => {
    const day = await badDay(fixture.site, fixture.temp.dir);
    const result = await runCliCaptured(
      ['diff', ...day.args, '--snapshot', day.snapshot, '--json'],
      { env: day.env },
    );
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
      `media-removed media/${day.deleted.media.id}`,
      `trashed posts/${day.trashed.id}`,
      ...day.edited.map(({ before }) =>
        before.id === day.statusChanged
          ? `unpublished posts/${before.id}`
          : `updated posts/${before.id}`,
      ),
    ].sort();
    expect(listed).toEqual(expected);

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
