/**
 * Issue 12, point 10c: two different files claiming one media path are both named in the
 * warning (not one path twice).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { planSite } from '../../../src/site/site-plan.js';
import type { MediaFile } from '../../../src/site/site-model.js';
import { fixtureModel, png } from '../../helpers/fixture-model.js';

function file(sitePath: string, seed: string, source: string): MediaFile {
  const bytes = png(seed);
  return {
    sitePath,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    source,
    read: () => bytes,
  };
}

describe('media files claiming one path', () => {
  it('names both files in the warning and keeps the first', () => {
    const model = fixtureModel({ posts: 3 });
    const used = model.media[1]!;
    model.media.push(
      file(used.sitePath, 'other bytes', 'http://h/pl/cms-content/uploads/b.png (media 9)'),
    );
    model.media[1] = { ...used, source: 'http://h/pl/cms-content/uploads/a.png (media 4)' };
    const plan = planSite(model);
    const warning = plan.warnings.find((text) => text.includes('left out: it is the same file'));
    expect(warning).toBeDefined();
    expect(warning).toContain('uploads/b.png (media 9)');
    expect(warning).toContain('uploads/a.png (media 4)');
    const copied = plan.files.filter((entry) => entry.file === used.sitePath.slice(1));
    expect(copied).toHaveLength(1);
    expect(copied[0]!.input).toBe(used.sha256);
  });
});
