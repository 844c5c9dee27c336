/**
 * Build benchmarks on synthetic models (no cache, no network): a full build of N posts per
 * language × 2 languages, a no-op run, and a run after one edited post.
 *   npx tsx test/bench/build.bench.ts [postsPerLanguage=10000] [wordsPerPost=250]
 * Pages render and are indexed in worker threads, so peak RSS is this process's with its
 * workers (Pagefind's own processes are not counted).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BuildOptions } from '../../src/site/build-site.js';
import { startBuildWorkers } from '../../src/site/build-workers.js';
import type { MediaFile, PageEntry, PostEntry, SiteModel } from '../../src/site/site-model.js';
import { openStore, type Store } from '../../src/store/index.js';
import { relativeSitePath } from '../../src/transform/site-paths.js';
import { storedBuild, type StoredBuild } from '../helpers/site/stored-build.js';

const POSTS = Number(process.argv[2] ?? 10_000);
const WORDS = Number(process.argv[3] ?? 250);
const LANGS = ['pl', 'es'] as const;

const VOCABULARY: Record<(typeof LANGS)[number], string[]> = {
  pl: 'zażółć gęślą jaźń kraków spacer jesień pierogi ruskie dostępność konferencja kopia zapasowa treści wyprawa bieszczady łódź nocą plan wydawniczy warsztaty galeria gdańsk myśl poniedziałek strefa czasowa żurek zupa mazury kajak wygląd witryny wywiad redakcja książki lato śląskie kluski mapa ścieżki rowerowe archiwum numer wiosenny podsumowanie roku'.split(
    ' ',
  ),
  es: 'paseo otoño madrid receta tortilla patatas accesibilidad conferencia copia seguridad contenido viaje pirineos sevilla noche plan editorial taller galería bilbao pensamiento lunes zona horaria gazpacho sopa costa kayak diseño sitio entrevista redacción libros verano paella paso mapa rutas bicicleta archivo número primavera resumen año'.split(
    ' ',
  ),
};

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function text(lang: (typeof LANGS)[number], seed: number, words: number): string {
  const vocabulary = VOCABULARY[lang];
  const out: string[] = [];
  for (let index = 0; index < words; index++) {
    out.push(vocabulary[(seed * 31 + index * 17 + ((seed >> 3) ^ index)) % vocabulary.length]!);
  }
  return out.join(' ');
}

function postPath(index: number): string {
  return `/${2015 + (index % 10)}/${pad((index % 12) + 1)}/wpis-${index}/`;
}

function model(lang: (typeof LANGS)[number], posts: number): SiteModel {
  const other = lang === 'pl' ? 'es' : 'pl';
  const media: MediaFile[] = Array.from({ length: 20 }, (_, index) => {
    const bytes = Buffer.alloc(20_000, index);
    return {
      sitePath: `/media/${index}-photo.jpg`,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      read: () => bytes,
    };
  });
  const entries: PostEntry[] = [];
  for (let index = 0; index < posts; index++) {
    const sitePath = postPath(index);
    const up = relativeSitePath(sitePath, '/');
    const paragraphs = Array.from(
      { length: 4 },
      (_, p) => `<p>${text(lang, index * 4 + p, Math.ceil(WORDS / 4))}</p>`,
    );
    const date = `${2015 + (index % 10)}-${pad((index % 12) + 1)}-${pad((index % 28) + 1)}T${pad(index % 24)}:${pad(index % 60)}:00`;
    entries.push({
      id: index + 1,
      sitePath,
      title: `${text(lang, index, 5)} ${index}`,
      html: `<h2 id="a">${text(lang, index + 1, 4)}</h2>${paragraphs.join('')}<p><img src="${up}media/${index % 20}-photo.jpg" alt="" width="800" height="600" loading="lazy"></p>`,
      excerptHtml: `<p>${text(lang, index + 2, 40)}</p>`,
      dateGmt: date,
      modifiedGmt: date,
      status: 'publish',
      protected: false,
      alternates: [{ lang: other, sitePath }],
      contentHash: `c${index}`,
      sticky: index === 7,
    });
  }
  entries.sort((a, b) => (a.dateGmt < b.dateGmt ? 1 : -1));
  const pages: PageEntry[] = Array.from({ length: 20 }, (_, index) => ({
    id: 100_000 + index,
    sitePath: index < 5 ? `/strona-${index}/` : `/strona-${index % 5}/pod-${index}/`,
    title: `${text(lang, index, 2)} ${index}`,
    html: `<p>${text(lang, index, WORDS)}</p>`,
    excerptHtml: '',
    dateGmt: '2020-01-01T00:00:00',
    modifiedGmt: '2020-01-01T00:00:00',
    status: 'publish',
    protected: false,
    alternates: [],
    contentHash: `p${index}`,
    parentId: index < 5 ? 0 : 100_000 + (index % 5),
    menuOrder: index,
  }));
  return {
    lang,
    locale: lang === 'pl' ? 'pl-PL' : 'es-ES',
    site: {
      name: `Bench ${lang}`,
      description: 'Benchmark site',
      publicUrl: `https://bench.example/${lang}/`,
    },
    languages: [
      { lang: 'pl', label: 'Polski', homePath: lang === 'pl' ? './' : '../pl/' },
      { lang: 'es', label: 'Español', homePath: lang === 'es' ? './' : '../es/' },
    ],
    identity: {
      kind: 'Organization',
      name: 'Bench',
      url: `https://bench.example/${lang}/`,
      sameAs: [],
    },
    posts: entries,
    pages,
    media,
  };
}

function rssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await run();
  return [value, (performance.now() - started) / 1000];
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-build-bench-'));
  // Pages render and are indexed in worker threads, as `cms-mirror build` and `run` do it.
  const workers = startBuildWorkers();
  // The builds' records, in a cache as a run keeps them (the files on disk listed, as `build`).
  const store: Store = openStore(path.join(dir, 'cache.sqlite'));
  const buildFromModel = (
    model: SiteModel,
    options: Omit<BuildOptions, 'stored'>,
    lang = path.basename(options.outDir),
  ) => storedBuild(store, model, options, { lang });
  try {
    const models = Object.fromEntries(LANGS.map((lang) => [lang, model(lang, POSTS)])) as Record<
      (typeof LANGS)[number],
      SiteModel
    >;
    const outDir = (lang: string): string => path.join(dir, 'output', lang);
    const reports = new Map<string, StoredBuild>();

    // One language after the other, as `cms-mirror build` does.
    const [, fullSeconds] = await timed(async () => {
      for (const lang of LANGS)
        reports.set(lang, await buildFromModel(models[lang], { outDir: outDir(lang), workers }));
    });
    const pages = [...reports.values()].reduce((sum, report) => sum + report.pages, 0);
    const files = [...reports.values()].reduce((sum, report) => sum + report.written, 0);
    console.log(
      `full build, ${POSTS} posts × ${LANGS.length} languages (${WORDS} words each): ${fullSeconds.toFixed(2)} s, ` +
        `${pages} pages (${Math.round(pages / fullSeconds)} pages/s), ${files} files, peak RSS ${rssMb()} MB`,
    );
    for (const [lang, report] of reports)
      console.log(`  ${lang} phases (s): ${JSON.stringify(report.phases)}`);

    // The decision `canSkipBuild` takes inside the build, before anything is planned.
    const [skips, skipSeconds] = await timed(async () => {
      const skipped: boolean[] = [];
      for (const lang of LANGS) {
        const report = await buildFromModel(models[lang], {
          outDir: outDir(lang),
          changed: { items: 0, site: false },
          workers,
        });
        skipped.push(report.skipped);
      }
      return skipped;
    });
    console.log(
      `no-op (pull changed nothing): ${skipSeconds.toFixed(3)} s for both languages, skipped: ${skips.join(', ')}`,
    );

    const [noop, noopSeconds] = await timed(() =>
      buildFromModel(models.pl, {
        outDir: outDir('pl'),
        workers,
      }),
    );
    console.log(
      `no-op without a change set (model digest compared), one language: ${noopSeconds.toFixed(2)} s, ` +
        `skipped: ${noop.skipped}, written ${noop.written}`,
    );

    const edited = models.pl;
    const post = edited.posts[Math.floor(edited.posts.length / 2)]!;
    post.title = `${post.title} (edited)`;
    post.html = `${post.html}<p>edited</p>`;
    post.modifiedGmt = '2030-01-01T00:00:00';
    const [edit, editSeconds] = await timed(() =>
      buildFromModel(edited, {
        outDir: outDir('pl'),
        workers,
      }),
    );
    const searchFiles = edit.stagedFiles.filter((file) => file.startsWith('pagefind/')).length;
    console.log(
      `one edited post, one language: ${editSeconds.toFixed(2)} s (phases ${JSON.stringify(edit.phases)}), ${edit.rendered} pages rendered, ` +
        `${edit.written} files written (${searchFiles} of them search index), ${edit.removed} removed`,
    );
    console.log(
      `  pages written: ${edit.stagedFiles.filter((file) => !file.startsWith('pagefind/')).join(', ')}`,
    );

    const [plain, plainSeconds] = await timed(() =>
      buildFromModel(
        models.es,
        { outDir: path.join(dir, 'plain', 'es'), search: false, workers },
        'plain-es',
      ),
    );
    console.log(
      `full build without search index, one language: ${plainSeconds.toFixed(2)} s, ` +
        `${plain.pages} pages (${Math.round(plain.pages / plainSeconds)} pages/s)`,
    );
  } finally {
    store.close();
    await workers.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
