/**
 * A theme of a few lines for the renderer's unit tests, whose pages print what a test expects
 * (the oracle is the template text written here, not the project's theme).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Job } from '../../src/site/template-data.js';
import type { RenderInput } from '../../src/site/eleventy-renderer.js';

/**
 * Writes `dir/theme/` with a post page per job, its body `post` (Nunjucks, the job as `job`),
 * and each of `pages` as a template of its own (name -> text, front matter included).
 */
export function tinyTheme(dir: string, post: string, pages: Record<string, string> = {}): string {
  const theme = path.join(dir, 'theme');
  fs.mkdirSync(theme);
  fs.writeFileSync(
    path.join(theme, 'post.njk'),
    `---\npagination: { data: cms.jobs.post, size: 1, alias: job }\npermalink: "{{ job.permalink }}"\n---\n${post}`,
  );
  for (const [name, text] of Object.entries(pages)) fs.writeFileSync(path.join(theme, name), text);
  return theme;
}

/** A Polish site's render of one post job per title. */
export function postsInput(
  templatesDir: string,
  outDir: string,
  titles: readonly string[],
): RenderInput {
  return {
    templatesDir,
    outDir,
    global: {
      lang: 'pl',
      locale: 'pl',
      site: { name: 'S', description: '', publicUrl: 'http://x/' },
    },
    jobs: titles.map((title) => ({ kind: 'post', title }) as unknown as Job),
  };
}
