/**
 * The renderer stages each chunk's pages itself (`renderAndStage`): when a chunk's call
 * settles, every page it reports as written is on disk with the bytes of the hash it reports,
 * whatever the text (1 to 4 bytes a character), and a page whose previous bytes are on disk is
 * not written again. The oracle hashes the expected text itself with node:crypto.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderAndStage, type StagedRenderInput } from '../../../src/site/page-staging.js';
import { postsInput, tinyTheme } from '../../helpers/tiny-theme.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-staging-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A theme whose post page is the job's title, nothing else. */
const theme = (): string => tinyTheme(tmp, '{{ job.title | safe }}');

const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Latin, then text of 2, 3 and 4 bytes a character. */
const titles = ['plain', '€'.repeat(3000), 'zażółć', '😀'.repeat(500), 'last'];

function input(
  templatesDir: string,
  stageDir: string,
  previous: (string | undefined)[],
): StagedRenderInput {
  return {
    ...postsInput(templatesDir, path.join(tmp, 'eleventy-out'), titles),
    stage: {
      root: path.join(tmp, 'root'),
      dir: stageDir,
      files: titles.map((_, index) => `p${index}/index.html`),
      previous,
    },
  };
}

describe('renderAndStage', () => {
  it('has every written page on disk, with the bytes of its reported hash, once the call settles', async () => {
    const stage = path.join(tmp, 'staging');
    const result = await renderAndStage(input(theme(), stage, []));
    expect(result.pages.map((page) => page.written)).toEqual(titles.map(() => true));
    result.pages.forEach((page, index) => {
      const title = titles[index] as string;
      const onDisk = fs.readFileSync(path.join(stage, `p${index}`, 'index.html'));
      expect(onDisk.equals(Buffer.from(title, 'utf8'))).toBe(true);
      expect(page.hash).toBe(sha(title));
      expect(page.bytes).toBe(Buffer.byteLength(title, 'utf8'));
    });
  });

  it('writes no page whose previous bytes are on disk, and still reports its hash and size', async () => {
    const stage = path.join(tmp, 'staging');
    const previous = titles.map((title, index) => (index === 1 ? sha(title) : undefined));
    const result = await renderAndStage(input(theme(), stage, previous));
    expect(result.pages.map((page) => page.written)).toEqual([true, false, true, true, true]);
    expect(fs.existsSync(path.join(stage, 'p1'))).toBe(false);
    expect(result.pages[1]).toEqual({
      hash: sha(titles[1] as string),
      bytes: Buffer.byteLength(titles[1] as string),
      written: false,
    });
    expect(fs.readFileSync(path.join(stage, 'p3', 'index.html'), 'utf8')).toBe(titles[3]);
  });
});
