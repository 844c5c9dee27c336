import path from 'node:path';
import {
  buildFromModel,
  type BuildOptions,
  type BuildReport,
} from '../../../src/site/build-site.js';
import type { ManifestFile } from '../../../src/site/build-manifest.js';
import type { SiteModel } from '../../../src/site/site-model.js';
import {
  currentHeader,
  recordStoredBuild,
  storedRecord,
} from '../../../src/site/stored-manifest.js';
import type { Store } from '../../../src/store/index.js';

export const SOURCES = {
  siteDigest: 's',
  sourcesAt: '2024-01-01T00:00:00Z',
  transformVersion: 't',
  pathsDigest: 'p',
};

export interface StoredBuild extends BuildReport {
  /** The files whose bytes this build staged (its staged rows marked written), in path order. */
  stagedFiles: string[];
}

export interface StoredBuildHow {
  /** The language the record is kept under. @default the name of `outDir` */
  lang?: string;
  /** Record the build (`recordStoredBuild`). @default true */
  record?: boolean;
  /** The record stands for the files on disk (as in a run that pulled). @default false: listed */
  trusted?: boolean;
}

/**
 * One language's build from a model with its record in `store`, as a run makes it: the last
 * build's header read from the cache (none: a full build), the rows staged, then recorded.
 */
export async function storedBuild(
  store: Store,
  model: SiteModel,
  options: Omit<BuildOptions, 'stored'>,
  how: StoredBuildHow = {},
): Promise<StoredBuild> {
  const lang = how.lang ?? path.basename(options.outDir);
  const previous = currentHeader(store.buildState.getState(lang));
  const stored = storedRecord(store, lang, previous, how.trusted === true);
  const report = await buildFromModel(model, { ...options, stored });
  const stagedFiles = [...stored.made.written()];
  if (how.record !== false) recordStoredBuild(store, lang, report, SOURCES);
  return { ...report, stagedFiles };
}

/** The rows the cache records for a language's last build. */
export function recordedFiles(store: Store, lang: string): Record<string, ManifestFile> {
  return { ...store.buildState.get(lang)?.manifest.files };
}
