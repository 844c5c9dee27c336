import { copyFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { migrate, type MigrateOptions, type MigrateReport } from '../../../src/migrate/index.js';
import type { ReferenceOptions } from '../../../src/reference/index.js';
import { mirrorLanguageInto } from '../push-site-fixture.js';
import { startReference, type ReferenceSite } from '../reference.js';
import { tempCache, type TempCache } from '../temp-cache.js';

/**
 * The set-up of in-process migration tests: one small source reference site mirrored once
 * into a cache (the slow part, shared by the file's tests), and for each test a copy of that
 * cache (its own `id_map`) and as many empty target sites as it asks for, closed after it.
 * `run` migrates the `pl` language in-process, without request pacing.
 */
export interface MigrationSites {
  readonly source: ReferenceSite;
  /** A fresh copy of the source cache (with the media files when `media` was asked). */
  cache(): string;
  /** An empty target site (languages `pl`), closed after the test. */
  target(options?: ReferenceOptions): Promise<ReferenceSite>;
  run(
    cache: string,
    target: ReferenceSite,
    options?: Partial<MigrateOptions>,
  ): Promise<MigrateReport>;
}

/**
 * `files: false`: the cache holds the media items but not their files (a pull without
 * `backup`), so a migration must download them from the source. `prepare` changes the source
 * site before it is mirrored.
 */
export function useMigrationSites(
  options: ReferenceOptions = { posts: 4, pages: 3, media: 2 },
  { files = true, prepare }: { files?: boolean; prepare?: (source: ReferenceSite) => void } = {},
): MigrationSites {
  let source: ReferenceSite | undefined;
  let master: TempCache | undefined;
  const temps: TempCache[] = [];
  const targets: ReferenceSite[] = [];
  beforeAll(async () => {
    source = await startReference({ languages: ['pl'], ...options });
    prepare?.(source);
    master = tempCache('cms-mirror-migrate-');
    await mirrorLanguageInto(source, 'pl', master.file, { media: true });
    if (!files) {
      const db = new Database(master.file);
      db.exec('DELETE FROM media_files; DELETE FROM media_blobs;');
      db.close();
    }
  });
  afterAll(async () => {
    await source?.close();
    master?.cleanup();
  });
  afterEach(async () => {
    for (const target of targets.splice(0)) await target.close();
    for (const temp of temps.splice(0)) temp.cleanup();
  });
  return {
    get source(): ReferenceSite {
      if (source === undefined) throw new Error('the source site exists only inside its describe');
      return source;
    },
    cache(): string {
      const temp = tempCache('cms-mirror-migrate-');
      temps.push(temp);
      const file = join(temp.dir, 'cache.sqlite');
      copyFileSync(master!.file, file);
      return file;
    },
    async target(targetOptions: ReferenceOptions = {}): Promise<ReferenceSite> {
      const target = await startReference({
        posts: 0,
        pages: 0,
        media: 0,
        languages: ['pl'],
        seed: 'target',
        ...targetOptions,
      });
      targets.push(target);
      return target;
    },
    run(cache, target, runOptions = {}) {
      return migrate({
        fromCache: cache,
        fromLang: 'pl',
        to: target.url,
        toLang: 'pl',
        credentials: target.credentials,
        http: { requestsPerSecond: 0, retries: 0 },
        ...runOptions,
      });
    },
  };
}
