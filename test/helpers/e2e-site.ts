/**
 * Helpers for the end-to-end build tests: a reference site plus a temporary cache and output
 * directory driven through the real CLI (`cms-mirror run --json`), and readers for what the
 * build left on disk (every file with its bytes and mtime, the Pagefind records).
 *
 *   const mirror = await startMirror();          // reference site + temp dirs
 *   const first = await mirror.run();            // pull + build, parsed JSON summary
 *   ...
 *   await mirror.close();
 */
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { resolveSettings } from '../../src/index.js';
import type { ReferenceOptions } from '../../src/reference/index.js';
import { walkFiles } from './link-check.js';
import { startReference, type ReferenceSite } from './reference.js';
import { runBin, runCliCaptured } from './run-cli.js';
import { tempCache, type TempCache } from './temp-cache.js';
import { credentialEnv } from './cli-args.js';

export interface LanguageRun {
  written: number;
  unchanged: number;
  removed: number;
  pages: number;
  skipped: boolean;
  seconds: number;
}

/** The `--json` line of `cms-mirror run`. */
export interface RunJson {
  pull: {
    languages: Record<string, Record<string, number>>;
    total: Record<string, number>;
  };
  build: {
    languages: Record<string, LanguageRun>;
    total: { written: number; unchanged: number; removed: number; pages: number };
  };
}

export interface Mirror {
  site: ReferenceSite;
  temp: TempCache;
  /** The output directory; each language is a folder in it. */
  outDir: string;
  cacheFile: string;
  /** Environment with the demo admin's credentials (edit context: every status is mirrored). */
  env: NodeJS.ProcessEnv;
  /** `cms-mirror run --json` against the site; throws with the CLI's stderr when it fails. */
  run(extra?: string[]): Promise<RunJson>;
  /**
   * The same run through the package's `bin` in a child process: the bundled CLI and its
   * bundled render worker (`npm run build` first).
   */
  runBin(extra?: string[]): Promise<RunJson>;
  /** The settings `run` resolves from the same flags, for a test that calls the library. */
  settings(): ReturnType<typeof resolveSettings>;
  close(): Promise<void>;
}

export interface MirrorOptions {
  reference?: ReferenceOptions;
  /** Output directory relative to the temp dir. @default 'output' */
  outDir?: string;
  /** @default ['pl', 'es'] */
  languages?: string[];
  /**
   * The pipeline's `translations`. @default what the reference site does: `none` with
   * `independentIds`, else `same-id`
   */
  translations?: 'same-id' | 'none';
}

export async function startMirror(options: MirrorOptions = {}): Promise<Mirror> {
  const site = await startReference(options.reference);
  const temp = tempCache('cms-mirror-e2e-');
  const outDir = path.join(temp.dir, options.outDir ?? 'output');
  const pipeline = path.join(temp.dir, 'pipeline.yaml');
  // No client-side pacing: the reference site is local and the tests should be quick.
  const translations =
    options.translations ?? (options.reference?.independentIds ? 'none' : 'same-id');
  fs.writeFileSync(pipeline, `translations: ${translations}\nhttp:\n  requestsPerSecond: 0\n`);
  const env = credentialEnv(site);
  const languages = (options.languages ?? ['pl', 'es']).join(',');
  const common = [
    '--pipeline',
    pipeline,
    '--site',
    site.url,
    '--lang',
    languages,
    '--cache',
    temp.file,
    '--out',
    outDir,
  ];
  return {
    site,
    temp,
    outDir,
    cacheFile: temp.file,
    env,
    async run(extra = []) {
      const result = await runCliCaptured(['run', ...common, '--json', ...extra], {
        env,
        cwd: temp.dir,
      });
      if (result.code !== 0) {
        throw new Error(`cms-mirror run exited with ${result.code}: ${result.stderr}`);
      }
      return JSON.parse(result.stdout) as RunJson;
    },
    async runBin(extra = []) {
      const { stdout } = await runBin(['run', ...common, '--json', ...extra], {
        env: { ...process.env, ...env },
        cwd: temp.dir,
      });
      return JSON.parse(stdout) as RunJson;
    },
    settings: () =>
      resolveSettings(
        { pipeline, site: site.url, lang: languages, cache: temp.file, out: outDir },
        env,
        temp.dir,
      ),
    async close() {
      await site.close();
      temp.cleanup();
    },
  };
}

export interface FileState {
  /** Nanosecond mtime: a rewrite within the same millisecond still shows. */
  mtimeNs: bigint;
  ino: bigint;
  bytes: Buffer;
}

/** Every file under `dir` (relative, forward slashes) with its bytes and mtime. */
export function snapshotFiles(dir: string): Map<string, FileState> {
  const files = new Map<string, FileState>();
  for (const file of walkFiles(dir)) {
    const full = path.join(dir, file);
    const stat = fs.statSync(full, { bigint: true });
    files.set(file, { mtimeNs: stat.mtimeNs, ino: stat.ino, bytes: fs.readFileSync(full) });
  }
  return files;
}

/** Files created or rewritten between two snapshots, and files that disappeared. */
export function diffSnapshots(
  before: ReadonlyMap<string, FileState>,
  after: ReadonlyMap<string, FileState>,
): { written: string[]; removed: string[] } {
  const written: string[] = [];
  for (const [file, state] of after) {
    const old = before.get(file);
    if (!old || old.mtimeNs !== state.mtimeNs || old.ino !== state.ino) written.push(file);
  }
  const removed = [...before.keys()].filter((file) => !after.has(file));
  return { written: written.sort(), removed: removed.sort() };
}

/** Files of a snapshot whose text contains `needle`. */
export function filesContaining(
  files: ReadonlyMap<string, FileState>,
  needle: string | Buffer,
): string[] {
  const bytes = typeof needle === 'string' ? Buffer.from(needle) : needle;
  return [...files]
    .filter(([, state]) => state.bytes.includes(bytes))
    .map(([file]) => file)
    .sort();
}

export interface PagefindRecord {
  /** The search bundle the record is in (`pagefind/s0`). */
  bundle: string;
  url: string;
  content: string;
  meta: Record<string, string>;
}

/**
 * Every document of a language's search index, read from the compressed fragments Pagefind
 * writes (gzip of `pagefind_dcd` + JSON), so tests can see exactly what is searchable.
 */
export function pagefindRecords(langDir: string): PagefindRecord[] {
  const records: PagefindRecord[] = [];
  for (const file of walkFiles(path.join(langDir, 'pagefind'))) {
    if (!file.endsWith('.pf_fragment')) continue;
    const text = gunzipSync(fs.readFileSync(path.join(langDir, 'pagefind', file))).toString('utf8');
    if (!text.startsWith('pagefind_dcd')) throw new Error(`${file} is not a Pagefind fragment`);
    const json = JSON.parse(text.slice('pagefind_dcd'.length)) as Omit<PagefindRecord, 'bundle'>;
    records.push({ bundle: `pagefind/${file.split('/')[0] ?? ''}`, ...json });
  }
  return records;
}

/** Documents the index says it holds: the sum of `page_count` over every bundle's entry file. */
export function pagefindPageCount(langDir: string): number {
  let count = 0;
  for (const file of walkFiles(path.join(langDir, 'pagefind'))) {
    if (!file.endsWith('pagefind-entry.json')) continue;
    const entry = JSON.parse(fs.readFileSync(path.join(langDir, 'pagefind', file), 'utf8')) as {
      languages: Record<string, { page_count: number }>;
    };
    for (const language of Object.values(entry.languages)) count += language.page_count;
  }
  return count;
}

/** The site path of an item's remote `link` under its language home (`/2024/03/slug/`). */
export function sitePathOfLink(site: ReferenceSite, lang: string, link: string): string {
  const home = `${site.url}/${lang}`;
  if (!link.startsWith(`${home}/`)) throw new Error(`${link} is not under ${home}/`);
  return link.slice(home.length);
}

/** The file a site path is built into, relative to the language folder. */
export function pageFileOf(sitePath: string): string {
  return `${decodeURIComponent(sitePath).replace(/^\//, '')}index.html`;
}
