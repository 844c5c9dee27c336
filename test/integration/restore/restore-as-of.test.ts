import { describe, expect, it } from 'vitest';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { badDay, expectRestored, onCache } from '../../helpers/bad-day-scenario.js';
import { records, writesLogged } from '../../helpers/restore-site.js';

/**
 * The bad day of the issue, end to end against the reference site over HTTP with real cache
 * files (see bad-day-scenario.ts): `restore --as-of` a time before the changes, then a pull.
 * The oracle is the site's own records taken before the changes.
 */
describe('cms-mirror restore --as-of', () => {
  const fixture = useSiteAndCache({}, 'cms-mirror-restore-');

  it('puts the site back as it was (new ids aside, links included); a second run sends no writes', async () => {
    const { site, temp } = fixture;
    const day = await badDay(site, temp.dir);
    const restore = () => onCache(day, 'restore', ['--as-of', day.before, '--json']);

    const restored = await restore();
    expect(restored.code, restored.stderr).toBe(0);
    const pulled = await onCache(day, 'pull', ['--backup', '--json']);
    expect(pulled.code, pulled.stderr).toBe(0);
    await expectRestored(day);
    const linking = records(site, 'posts').get(day.deleted.linking)!;
    expect(linking.content).toContain('<p>See <a href=');
    expect(linking.content).not.toContain(`?p=${day.deleted.post.id}"`);

    // Again: nothing left to send.
    site.control.clearLog();
    const again = await restore();
    expect(again.code, again.stderr).toBe(0);
    expect(writesLogged(site)).toEqual([]);
    const second = JSON.parse(again.stdout);
    expect(second.counts.writes).toBe(0);
    // Found through the recorded mapping, not searched for again as after a crash.
    expect(second.languages.pl.done).toEqual([]);
  }, 240_000);
});
