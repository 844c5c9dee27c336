import type { StoreContext } from './store-context.js';

/** The record of one language's last build, shaped as the build's manifest. */
export interface BuildManifestRecord {
  readonly version: number;
  readonly buildVersion: string;
  readonly templatesHash: string;
  readonly modelDigest: string;
  /** By file relative to `output/{lang}/`. */
  readonly files: Readonly<Record<string, { hash: string; input: string; bytes: number }>>;
}

export interface SavedBuild {
  readonly manifest: BuildManifestRecord;
  readonly siteDigest: string;
  readonly builtAt: string;
}

interface StateRow {
  manifest_version: number;
  build_version: string;
  templates_hash: string;
  model_digest: string;
  site_digest: string;
  built_at: string;
}

interface OutputRow {
  path: string;
  hash: string;
  input: string;
  bytes: number;
}

/**
 * `build_state` + `build_outputs`: the last build of each language as the build's manifest.
 * Kept as rows rather than one JSON value so that people can ask the cache what was built.
 */
export class BuildStateRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  get(lang: string): SavedBuild | undefined {
    return this.#ctx.read(() => {
      const state = this.#ctx.stmt<StateRow>('SELECT * FROM build_state WHERE lang = ?').get(lang);
      if (state === undefined) return undefined;
      const files: Record<string, { hash: string; input: string; bytes: number }> = {};
      for (const row of this.#ctx
        .stmt<OutputRow>('SELECT path, hash, input, bytes FROM build_outputs WHERE lang = ?')
        .all(lang)) {
        files[row.path] = { hash: row.hash, input: row.input, bytes: row.bytes };
      }
      return {
        manifest: {
          version: state.manifest_version,
          buildVersion: state.build_version,
          templatesHash: state.templates_hash,
          modelDigest: state.model_digest,
          files,
        },
        siteDigest: state.site_digest,
        builtAt: state.built_at,
      };
    }, 'reading the last build');
  }

  /** Replaces the record of a language in one transaction: never half a manifest. */
  set(lang: string, manifest: BuildManifestRecord, siteDigest: string): void {
    const clear = this.#ctx.stmt('DELETE FROM build_outputs WHERE lang = ?');
    const insert = this.#ctx.stmt(
      'INSERT INTO build_outputs (lang, path, hash, bytes, built_at, input) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const state = this.#ctx.stmt(`
      INSERT INTO build_state (lang, manifest_version, build_version, templates_hash, model_digest, site_digest, built_at)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (lang) DO UPDATE SET manifest_version = excluded.manifest_version,
        build_version = excluded.build_version, templates_hash = excluded.templates_hash,
        model_digest = excluded.model_digest, site_digest = excluded.site_digest,
        built_at = excluded.built_at`);
    const now = this.#ctx.nowIso();
    this.#ctx.write(() => {
      clear.run(lang);
      for (const [path, file] of Object.entries(manifest.files)) {
        insert.run(lang, path, file.hash, file.bytes, now, file.input);
      }
      state.run(
        lang,
        manifest.version,
        manifest.buildVersion,
        manifest.templatesHash,
        manifest.modelDigest,
        siteDigest,
        now,
      );
    }, 'recording the build');
  }
}
