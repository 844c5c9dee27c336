/**
 * Issue 4: hostile slugs, links and file names stay inside `output/{lang}/`. The reference
 * site in hostile mode serves published items whose slugs and media names hold `..`,
 * absolute paths, encoded separators, back-slashes, control characters, 300-character names
 * and non-Latin scripts. After a pull and a build, the whole temp tree — including the
 * directories ABOVE the output — holds nothing but the cache and the two language folders,
 * and every hostile post and page either has its page inside its language folder or was left
 * out with a warning.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild, type BuildSummary } from '../../../src/site/run-build.js';
import { resolveSettings } from '../../../src/config/settings.js';
import { HOSTILE_FILE_NAMES, HOSTILE_SLUGS } from '../../../src/reference/hostile.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { pull } from '../../../src/sync/index.js';
import { sitePathToFilePath } from '../../../src/transform/site-paths.js';
import { checkLinks, walkFiles } from '../../helpers/link-check.js';
import { useSharedSiteAndCache } from '../../helpers/mirror-fixture.js';
import type { ReferenceSite } from '../../helpers/reference.js';
import { credentialEnv } from '../../helpers/cli-args.js';

const LANGUAGES = ['pl', 'es'] as const;

describe('hostile slugs and file names stay inside output/{lang}/', () => {
  let site: ReferenceSite;
  let root: string;
  let outDir: string;
  let store: Store;
  let summary: BuildSummary;
  /** Names an escaping write would create next to the temp dir (in the system temp dir). */
  let outsideBefore: Set<string>;

  const fixture = useSharedSiteAndCache({ hostile: true }, 'cms-mirror-hostile-');

  beforeAll(async () => {
    site = fixture.site;
    root = fixture.temp.dir;
    // Three levels between the temp dir and a language folder, so `..` chains land inside
    // the walked tree before they could reach anything else.
    outDir = path.join(root, 'nest', 'deeper', 'output');
    outsideBefore = new Set(fs.readdirSync(os.tmpdir()));
    const settings = resolveSettings(
      {
        site: site.url,
        lang: LANGUAGES.join(','),
        cache: fixture.temp.file,
        out: outDir,
      },
      credentialEnv(site),
      root,
    );
    settings.http = { ...settings.http, requestsPerSecond: 0 };
    const pulled = await pull(settings);
    expect(pulled.status).toBe('ok');
    store = openStore(settings.cache);
    summary = await runBuild(store, settings);
  });
  afterAll(() => {
    store?.close();
  });

  it('writes nothing outside output/pl and output/es, at any level of the temp tree', () => {
    const everything = walkFiles(root);
    // Besides the languages, only the stamps of the build's switch (its staging is gone).
    expect(
      everything.filter((file) => file.startsWith('nest/deeper/output/.cms-mirror/')).sort(),
    ).toEqual([
      'nest/deeper/output/.cms-mirror/es.stamp',
      'nest/deeper/output/.cms-mirror/pl.stamp',
    ]);
    const outside = everything.filter(
      (file) =>
        !/^nest\/deeper\/output\/(?:(?:pl|es)\/|\.cms-mirror\/(?:pl|es)\.stamp$)/.test(file) &&
        !/^cache\.sqlite(?:-wal|-shm)?$/.test(file),
    );
    expect(outside).toEqual([]);
    // No directory either: the only folders are the chain down to the language folders.
    const directories = (
      fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[]
    )
      .filter((entry) => entry.isDirectory())
      .map((entry) =>
        path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
      )
      .filter((dir) => !/^nest\/deeper\/output\/(?:pl|es)(?:\/|$)/.test(dir));
    expect(directories.sort()).toEqual([
      'nest',
      'nest/deeper',
      'nest/deeper/output',
      'nest/deeper/output/.cms-mirror',
    ]);
    // Above the temp dir: nothing named after a hostile target appeared.
    const appeared = fs.readdirSync(os.tmpdir()).filter((name) => !outsideBefore.has(name));
    const targets = [
      'etc',
      'passwd',
      'evil.png',
      'encoded.png',
      'windows',
      'secret',
      'absolute.png',
      'c',
    ];
    expect(appeared.filter((name) => targets.includes(name))).toEqual([]);
    for (const absolute of ['/absolute.png', '/evil.png', '/secret'])
      expect(fs.existsSync(absolute)).toBe(false);
    expect(everything.filter((file) => file.endsWith('.html')).length).toBeGreaterThan(40);
  });

  it('gives every hostile post and page a page inside its language, or leaves it out with a warning', () => {
    let placed = 0;
    let leftOut = 0;
    for (const lang of LANGUAGES) {
      const built = summary.languages[lang];
      expect(built?.skipped).toBe(false);
      const langDir = path.join(outDir, lang);
      const pages = walkFiles(langDir).filter((file) => file.endsWith('index.html'));
      const htmlOf = new Map(
        pages.map((file) => [file, fs.readFileSync(path.join(langDir, file), 'utf8')]),
      );
      for (const type of ['posts', 'pages'] as const) {
        const hostile = site.control
          .listItems(lang, type)
          .filter((item) => item.title.includes('Hostile'));
        expect(hostile.length).toBeGreaterThan(type === 'posts' ? 10 : 3);
        for (const item of hostile) {
          const kind = type === 'posts' ? 'post' : 'page';
          const warned = (built?.warnings ?? []).some(
            (warning) =>
              warning.startsWith(`${kind} ${item.id} left out`) ||
              warning.startsWith(`${type} ${item.id} left out`),
          );
          // Its page: the file of the site path the transform gave it, inside the language
          // folder, showing the item's title (its markup stripped).
          const meta = store.transformed.get(lang, type, item.id)?.meta as
            { sitePath?: string } | undefined;
          const file = meta?.sitePath ? sitePathToFilePath(meta.sitePath) : undefined;
          const html = file === undefined ? undefined : htmlOf.get(file);
          const hasPage = html !== undefined && /<h1>[^<]*Hostile /.test(html);
          if (hasPage) placed++;
          else if (warned) leftOut++;
          else
            expect.fail(
              `${lang} ${kind} ${item.id} (${JSON.stringify(item.slug).slice(0, 60)}) has no page and no warning`,
            );
        }
      }
    }
    // Both outcomes happen: safe names are published, escaping ones are not silently dropped.
    expect(placed).toBeGreaterThan(0);
    expect(placed + leftOut).toBeGreaterThan(2 * (HOSTILE_SLUGS.length + 3));
  });

  it('keeps hostile media inside the language media folders and links resolve', () => {
    for (const lang of LANGUAGES) {
      const media = walkFiles(path.join(outDir, lang, 'media'));
      expect(media.length).toBeGreaterThan(0);
      for (const file of media) expect(file).not.toMatch(/(?:^|\/)\.\.(?:\/|$)|\\/);
      expect(checkLinks(outDir, lang).broken).toEqual([]);
    }
    expect(HOSTILE_FILE_NAMES.length).toBeGreaterThan(5);
  });
});
