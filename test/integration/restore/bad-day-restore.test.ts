import { describe, expect, it } from 'vitest';
import { badDay } from '../../helpers/bad-day-scenario.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { getJson, type Json, type ReferenceSite } from '../../helpers/reference.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import { writesLogged } from '../../helpers/restore-site.js';

/**
 * Issue 16's "done when" with the shared bad day (test/helpers/bad-day-scenario.ts): after
 * `restore --as-of` a time before the changes and a pull, the site's titles, contents,
 * statuses, slugs, parents and featured media equal the snapshot's (new ids aside), links to
 * the deleted post included; a second restore sends no writes. The oracle is what the helper
 * recorded from the site's answers before the changes.
 */
describe('restore after the bad day', () => {
  const fixture = useSiteAndCache({}, 'cms-mirror-bad-day-restore-');

  async function item(site: ReferenceSite, type: string, id: number): Promise<Json> {
    const response = await getJson(site, 'pl', `/cms/v2/${type}/${id}`, {
      auth: true,
      query: { context: 'edit' },
    });
    expect(response.status).toBe(200);
    return response.body;
  }

  const kept = (json: Json) => ({
    title: json.title.raw,
    content: json.content.raw,
    excerpt: json.excerpt.raw,
    status: json.status,
    slug: json.slug,
    parent: json.parent,
  });

  it('puts every one of the seven back and moves the links; a second run sends no writes', async () => {
    const { site, temp } = fixture;
    const day = await badDay(site, temp.dir);
    const run = (extra: string[]) =>
      runCliCaptured(['restore', ...day.args, ...extra], { env: day.env });
    const restored = await run(['--as-of', day.before, '--json']);
    expect(restored.code, restored.stderr).toBe(0);
    const pulled = await runCliCaptured(['pull', ...day.args, '--backup', '--json'], {
      env: day.env,
    });
    expect(pulled.code, pulled.stderr).toBe(0);

    for (const { before } of day.edited)
      expect(kept(await item(site, 'posts', before.id))).toEqual(kept(before));
    const untrashed = await item(site, 'posts', day.trashed.id);
    expect(kept(untrashed)).toEqual(kept(day.trashed));

    const { post, media, linkedFrom } = day.deleted;
    const copies = site.control
      .listItems('pl', 'posts')
      .filter((candidate) => candidate.title === post.title.raw);
    expect(copies).toHaveLength(1);
    const again = await item(site, 'posts', copies[0]!.id);
    expect(again.id).not.toBe(post.id);
    expect(kept(again)).toEqual(kept(post));
    expect(again.date_gmt).toBe(post.date_gmt);
    const image = await item(site, 'media', again.featured_media);
    expect(image.id).not.toBe(media.id);
    expect([image.title.raw, image.alt_text, image.mime_type]).toEqual([
      media.title.raw,
      media.alt_text,
      media.mime_type,
    ]);
    const bytes = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
    expect((await bytes(image.source_url)).length).toBeGreaterThan(0);
    expect([image.media_details.width, image.media_details.height]).toEqual([
      media.media_details.width,
      media.media_details.height,
    ]);

    const oldPath = new URL(post.link).pathname;
    for (const id of linkedFrom) {
      const linking = await item(site, typeOf(site, id), id);
      const content = String(linking.content.raw);
      if (oldPath !== new URL(again.link).pathname) expect(content).not.toContain(post.link);
      expect(content, `item ${id}`).toContain(again.link);
    }

    site.control.clearLog();
    const second = await run(['--as-of', day.before, '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(writesLogged(site)).toEqual([]);
  }, 240_000);
});

function typeOf(site: ReferenceSite, id: number): string {
  return site.control.getItem('pl', 'posts', id) !== undefined ? 'posts' : 'pages';
}
