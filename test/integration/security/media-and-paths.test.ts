/**
 * Media come only from the site's own origin unless the pipeline allows another; hostile
 * media file names never put a file outside `output/{lang}/`; `--out` through a symlink, and
 * symlinks planted inside the output, never make the build write outside the tree.
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../helpers/run-cli.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import type { ReferenceSite } from '../../helpers/reference.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import {
  listFiles,
  startTinyServer,
  treeDigest,
  type TinyServer,
} from '../../helpers/bad-input-harness.js';
import { credentialEnv } from '../../helpers/cli-args.js';

const PNG_BYTES = Buffer.from('89504e470d0a1a0a-not-really-a-png-but-bytes', 'utf8');

describe('media origins', () => {
  let site: ReferenceSite;
  let cdn: TinyServer;
  let temp: TempCache;
  let postSlug: string;

  const fixture = useSiteAndCache(
    { posts: 3, pages: 1, media: 1, languages: ['pl'] },
    'cms-mirror-media-origin-',
  );

  beforeEach(async () => {
    ({ site, temp } = fixture);
    cdn = await startTinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG_BYTES);
    });
    const [post] = site.control.createItems('pl', 'posts', 1, {
      slug: 'remote-image',
      content: `<p>Before.</p>\n<p><img src="${cdn.url}/uploads/photo.png" alt="remote" width="16" height="16"></p>`,
    });
    postSlug = post!.slug;
  });
  afterEach(async () => {
    await cdn.close();
  });

  const build = async (pipelineText: string) => {
    const pipeline = join(temp.dir, 'pipeline.yaml');
    writeFileSync(pipeline, pipelineText);
    const out = join(temp.dir, 'output');
    const options = {
      env: credentialEnv(site),
      cwd: temp.dir,
    };
    const result = await runCliCaptured(
      ['pull', '--pipeline', pipeline, '--site', site.url, '--lang', 'pl', '--cache', temp.file],
      options,
    );
    expect(result.code, result.stderr).toBe(0);
    const built = await runCliCaptured(
      ['build', '--pipeline', pipeline, '--lang', 'pl', '--cache', temp.file, '--out', out],
      options,
    );
    expect(built.code, built.stderr).toBe(0);
    const page = listFiles(join(out, 'pl')).find(
      (file) => file.includes(`${sep}${postSlug}${sep}`) && file.endsWith('index.html'),
    );
    expect(page, 'the post page').toBeDefined();
    return { result, out, html: readFileSync(page!, 'utf8') };
  };

  it('an image on another origin is not downloaded by default and stays a remote link', async () => {
    const { result, out, html } = await build('backup: true\nhttp:\n  requestsPerSecond: 0\n');
    expect(cdn.paths).toEqual([]);
    expect(result.stdout).toMatch(/1 media URLs refused \(origin not allowed\)/);
    expect(html).toContain(`src="${cdn.url}/uploads/photo.png"`);
    const media = listFiles(join(out, 'pl')).filter((file) => file.includes(`${sep}media${sep}`));
    expect(media.some((file) => file.endsWith('-photo.png'))).toBe(false);
    // The site's own media were mirrored: the refusal is about the origin, not media at all.
    expect(media.length).toBeGreaterThan(0);
  });

  it('with media.allowedOrigins the image is downloaded and the page links the local copy', async () => {
    const { out, html } = await build(
      `backup: true\nhttp:\n  requestsPerSecond: 0\nmedia:\n  allowedOrigins: ["${cdn.url}"]\n`,
    );
    expect(cdn.paths).toEqual(['/uploads/photo.png']);
    expect(html).not.toContain(`${cdn.url}/uploads/photo.png`);
    const local = listFiles(join(out, 'pl')).find((file) => file.endsWith('-photo.png'));
    expect(local).toBeDefined();
    expect(readFileSync(local!)).toEqual(PNG_BYTES);
    const name = local!.slice(local!.lastIndexOf(sep) + 1);
    expect(html).toMatch(new RegExp(`src="[^"]*media/${name}"`));
  });
});

describe('output paths from hostile media names, and symlinks', () => {
  let site: ReferenceSite;
  let temp: TempCache;
  let env: NodeJS.ProcessEnv;
  let common: string[];
  let buildArgs: string[];

  const fixture = useSiteAndCache(
    { posts: 3, pages: 2, media: 1, hostile: true },
    'cms-mirror-paths-',
  );

  beforeEach(async () => {
    ({ site, temp } = fixture);
    env = credentialEnv(site);
    // The build copies the media a page shows: one post per language shows every file,
    // hostile names included, under the URLs the site gives for them.
    for (const lang of ['pl', 'es']) {
      const answer = await fetch(`${site.url}/${lang}/cms-json/cms/v2/media?per_page=100`);
      const media = (await answer.json()) as { source_url: string }[];
      const images = media.map((item) => `<p><img src="${item.source_url}" alt=""></p>`);
      site.control.createItems(lang, 'posts', 1, {
        slug: 'gallery',
        content: images.join('\n'),
      });
    }
    const pipeline = join(temp.dir, 'pipeline.yaml');
    writeFileSync(pipeline, 'backup: true\nhttp:\n  requestsPerSecond: 0\n');
    common = ['--pipeline', pipeline, '--site', site.url, '--lang', 'pl,es', '--cache', temp.file];
    buildArgs = ['build', '--pipeline', pipeline, '--lang', 'pl,es', '--cache', temp.file];
    const pulled = await runCliCaptured(['pull', ...common], { env, cwd: temp.dir });
    expect(pulled.code, pulled.stderr).toBe(0);
  });

  /** Everything under the temp dir that is neither the cache nor inside `allowed`. */
  const strayFiles = (allowed: readonly string[]): string[] =>
    listFiles(temp.dir)
      .map((file) => relative(temp.dir, file))
      .filter((file) => !/^cache\.sqlite(-wal|-shm)?$/.test(file) && file !== 'pipeline.yaml')
      .filter((file) => !allowed.some((root) => file === root || file.startsWith(`${root}${sep}`)));

  it('hostile media file names become plain names inside output/{lang}/media/', async () => {
    // Nested two levels down, so a file escaping by one or two `..` still lands in temp.dir.
    const out = join(temp.dir, 'a', 'b', 'output');
    const built = await runCliCaptured([...buildArgs, '--out', out], { env, cwd: temp.dir });
    expect(built.stderr).not.toMatch(/internal error/);
    expect(built.code, built.stderr).toBe(0);
    // Besides output/{lang}/, the build writes only its own stamps of what it built (README).
    expect(
      strayFiles([join('a', 'b', 'output', 'pl'), join('a', 'b', 'output', 'es')]).sort(),
    ).toEqual(['es', 'pl'].map((lang) => join('a', 'b', 'output', '.cms-mirror', `${lang}.stamp`)));
    const media = listFiles(out).filter((file) => file.includes(`${sep}media${sep}`));
    // The hostile files were mirrored (several share one name: their bytes are identical).
    expect(media.length).toBeGreaterThanOrEqual(12);
    for (const file of media) {
      const [lang, dir, name, ...rest] = relative(out, file).split(sep);
      expect(['pl', 'es']).toContain(lang);
      expect(dir).toBe('media');
      expect(rest).toEqual([]);
      expect(name).toMatch(/^[0-9a-f]{16}-[A-Za-z0-9_-]{1,80}\.[a-z0-9]{1,8}$/);
    }
    // Traversal, encoded, back-slash and diacritic names are kept as safe last parts.
    for (const tail of [
      '-evil.png',
      '-absolute.png',
      '-encoded.png',
      '-slash.png',
      '-zdjecie-zo-w.png',
    ]) {
      expect(
        media.filter((file) => file.endsWith(tail)),
        tail,
      ).toHaveLength(2);
    }
  });

  it('--out through a symlink builds into its target and nowhere else', async () => {
    const real = join(temp.dir, 'real-output');
    mkdirSync(real);
    const link = join(temp.dir, 'out-link');
    symlinkSync(real, link, 'dir');
    const built = await runCliCaptured([...buildArgs, '--out', link], { env, cwd: temp.dir });
    expect(built.code, built.stderr).toBe(0);
    expect(existsSync(join(real, 'pl', 'index.html'))).toBe(true);
    expect(existsSync(join(real, 'es', 'index.html'))).toBe(true);
    expect(readdirSync(real).sort()).toEqual(expect.arrayContaining(['es', 'pl']));
    expect(strayFiles(['real-output', 'out-link'])).toEqual([]);
  });

  it('symlinks planted inside output/{lang}/ are replaced or refused, never written through', async () => {
    const out = join(temp.dir, 'output');
    const first = await runCliCaptured([...buildArgs, '--out', out], { env, cwd: temp.dir });
    expect(first.code, first.stderr).toBe(0);
    const outside = join(temp.dir, 'outside');
    mkdirSync(outside);
    const victim = join(outside, 'victim.html');
    writeFileSync(victim, 'precious');
    // A file symlink in place of the home page, and a directory symlink in place of the media dir.
    const home = join(out, 'es', 'index.html');
    const homeBefore = readFileSync(home);
    rmSync(home);
    symlinkSync(victim, home);
    const mediaDir = join(out, 'pl', 'media');
    rmSync(mediaDir, { recursive: true });
    symlinkSync(outside, mediaDir, 'dir');
    const before = treeDigest(outside);

    const again = await runCliCaptured([...buildArgs, '--out', out, '--force'], {
      env,
      cwd: temp.dir,
    });
    expect(again.stderr).not.toMatch(/internal error/);
    expect(treeDigest(outside)).toEqual(before);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    // The home page is a regular file again with the built content.
    expect(realpathSync(home)).toBe(home);
    expect(readFileSync(home)).toEqual(homeBefore);
    // The pl media dir leading outside is refused (exit 1) with one line naming it; es was
    // built before pl was reached (languages in code order), its home page rewritten as a
    // regular file.
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      `cms-mirror: The directory ${mediaDir} resolves outside ${join(out, 'pl')}; nothing is written there.`,
    );
  });
});
