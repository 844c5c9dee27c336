import { StoreError } from '../errors.js';
import type { StoreContext } from './store-context.js';
import { sha256Hex } from './canonical-json.js';

export interface PutBlobResult {
  readonly sha256: string;
  readonly bytes: number;
  /** False when the same bytes were already stored (content addressing: stored once). */
  readonly inserted: boolean;
}

/** One downloaded URL and the blob it gave. */
export interface StoredMediaFile {
  readonly url: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly mimeType: string | null;
  readonly etag: string | null;
  readonly fetchedAt: string;
  readonly lang: string | null;
  readonly mediaId: number | null;
}

export interface MediaFileInput {
  readonly url: string;
  /** Must name a blob already stored with `putBlob` (foreign key). */
  readonly sha256: string;
  readonly mimeType?: string | null;
  readonly etag?: string | null;
  readonly lang?: string | null;
  readonly mediaId?: number | null;
}

interface MediaFileRow {
  url: string;
  sha256: string;
  bytes: number;
  mime_type: string | null;
  etag: string | null;
  fetched_at: string;
  lang: string | null;
  media_id: number | null;
}

function fromRow(row: MediaFileRow): StoredMediaFile {
  return {
    url: row.url,
    sha256: row.sha256,
    bytes: row.bytes,
    mimeType: row.mime_type,
    etag: row.etag,
    fetchedAt: row.fetched_at,
    lang: row.lang,
    mediaId: row.media_id,
  };
}

const SHA256 = /^[0-9a-f]{64}$/;

/** `media_blobs` (bytes by sha256) and `media_files` (URL → blob). */
export class MediaRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  /**
   * Stores bytes under their sha256 (computed here, so what is stored is always what its key
   * says). With `expectedSha256` (from a manifest or a previous download) a mismatch is
   * refused: a truncated or altered download never enters the cache.
   */
  putBlob(data: Uint8Array, expectedSha256?: string): PutBlobResult {
    const sha256 = sha256Hex(data);
    if (expectedSha256 !== undefined && expectedSha256.toLowerCase() !== sha256) {
      throw new StoreError(
        this.#ctx.file,
        `media bytes do not match their expected sha256 ${expectedSha256} (got ${sha256}); not stored`,
      );
    }
    const insert = this.#ctx.stmt(
      'INSERT INTO media_blobs (sha256, bytes, data) VALUES (?, ?, ?) ON CONFLICT (sha256) DO NOTHING',
    );
    const inserted = this.#ctx.write(
      () =>
        insert.run(
          sha256,
          data.byteLength,
          Buffer.from(data.buffer, data.byteOffset, data.byteLength),
        ).changes > 0,
      'storing media',
    );
    return { sha256, bytes: data.byteLength, inserted };
  }

  hasBlob(sha256: string): boolean {
    if (!SHA256.test(sha256)) return false;
    return this.#ctx.read(
      () => this.#ctx.stmt('SELECT 1 FROM media_blobs WHERE sha256 = ?').get(sha256) !== undefined,
    );
  }

  /** The bytes of a blob, or undefined when not stored. */
  getBlob(sha256: string): Buffer | undefined {
    if (!SHA256.test(sha256)) return undefined;
    const row = this.#ctx.read(() =>
      this.#ctx.stmt<{ data: Buffer }>('SELECT data FROM media_blobs WHERE sha256 = ?').get(sha256),
    );
    return row?.data;
  }

  /** Maps a URL to a stored blob (replacing an earlier mapping of that URL). */
  setFile(input: MediaFileInput): void {
    const upsert = this.#ctx.stmt(`
      INSERT INTO media_files (url, sha256, bytes, mime_type, etag, fetched_at, lang, media_id)
      SELECT @url, sha256, bytes, @mimeType, @etag, @fetchedAt, @lang, @mediaId
      FROM media_blobs WHERE sha256 = @sha256
      ON CONFLICT (url) DO UPDATE SET
        sha256 = excluded.sha256, bytes = excluded.bytes, mime_type = excluded.mime_type,
        etag = excluded.etag, fetched_at = excluded.fetched_at, lang = excluded.lang,
        media_id = excluded.media_id`);
    const changes = this.#ctx.write(
      () =>
        upsert.run({
          url: input.url,
          sha256: input.sha256,
          mimeType: input.mimeType ?? null,
          etag: input.etag ?? null,
          fetchedAt: this.#ctx.nowIso(),
          lang: input.lang ?? null,
          mediaId: input.mediaId ?? null,
        }).changes,
      'storing a media URL',
    );
    if (changes === 0) {
      throw new TypeError(`media blob ${input.sha256} is not stored: putBlob before setFile`);
    }
  }

  getFile(url: string): StoredMediaFile | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx.stmt<MediaFileRow>('SELECT * FROM media_files WHERE url = ?').get(url),
    );
    return row === undefined ? undefined : fromRow(row);
  }

  /** URL mappings, optionally of one language and/or one attachment, ordered by URL. */
  listFiles(filter: { readonly lang?: string; readonly mediaId?: number } = {}): StoredMediaFile[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.lang !== undefined) {
      where.push('lang = ?');
      params.push(filter.lang);
    }
    if (filter.mediaId !== undefined) {
      where.push('media_id = ?');
      params.push(filter.mediaId);
    }
    const sql = `SELECT * FROM media_files${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY url`;
    return this.#ctx.read(() =>
      this.#ctx
        .stmt<MediaFileRow>(sql)
        .all(...params)
        .map(fromRow),
    );
  }

  /** Count and total size of the stored blobs (each distinct content once). */
  blobStats(): { readonly count: number; readonly bytes: number } {
    const row = this.#ctx.read(() =>
      this.#ctx
        .stmt<{ count: number; bytes: number }>(
          'SELECT count(*) AS count, coalesce(sum(bytes), 0) AS bytes FROM media_blobs',
        )
        .get(),
    );
    return { count: row?.count ?? 0, bytes: row?.bytes ?? 0 };
  }

  /** Deletes blobs that no URL points at any more; returns how many. */
  deleteOrphanBlobs(): number {
    const remove = this.#ctx.stmt(
      'DELETE FROM media_blobs WHERE NOT EXISTS (SELECT 1 FROM media_files f WHERE f.sha256 = media_blobs.sha256)',
    );
    return this.#ctx.write(() => remove.run().changes, 'deleting unused media');
  }
}
