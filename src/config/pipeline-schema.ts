import { en } from 'zod/locales';
import * as z from 'zod/mini';

// zod's small API: the same checks and messages as its classic one, but a no-op `run` (which
// reads the pipeline file) compiles ~56 KB of it instead of ~760 KB and builds the schema
// from plain functions: 0.06 s of CPU on top of Node's start instead of 0.18 s (load ~20;
// test/bench/RESULTS.md, i-noop2). The mini API loads no messages by itself: English, as
// the classic API has.
z.config(en());

/**
 * The pipeline file: everything a scheduled run needs to know, except credentials, which come
 * from the environment (the file names the variables, never the values).
 * Unknown keys are errors: a typo must not silently fall back to a default.
 */
const languageCode = z
  .string()
  .check(z.regex(/^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i, 'a language segment such as "pl" or "es"'));

const envName = z.string().check(z.regex(/^[A-Z_][A-Z0-9_]*$/i, 'an environment variable name'));

/** A whole number in [min, max]. */
const int = (min: number, max: number) => z.int().check(z.minimum(min), z.maximum(max));

const webUrl = z.url({ protocol: /^https?$/ });

const nonEmpty = z.string().check(z.minLength(1));

/** Largest API response body accepted when `http.maxBodyBytes` is not set (64 MiB). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

export const httpSchema = z.strictObject({
  /** Requests in flight at once, per language. @default 6 */
  concurrency: z._default(int(1, 64), 6),
  /** Requests per second, per language; 0 means unlimited. @default 20 */
  requestsPerSecond: z._default(z.number().check(z.minimum(0), z.maximum(10_000)), 20),
  /** Per-request timeout in milliseconds. @default 30000 */
  timeoutMs: z._default(int(100, 600_000), 30_000),
  /** Retries after the first try on network errors, 5xx, 408 and 429. @default 5 */
  retries: z._default(int(0, 20), 5),
  /**
   * Longest wait a server may ask for with `Retry-After` on a 429 or 5xx, in milliseconds.
   * A server that asks for more is not waited for: the request stops at once with an error
   * naming the URL and the wait asked. Optional in the type, like `maxBodyBytes`.
   * @default 60000
   */
  retryAfterMaxMs: z.optional(int(0, 3_600_000)),
  /**
   * Largest API response body accepted, in bytes; a bigger answer is refused (exit 2), never
   * buffered. Media downloads have their own limit (`media.maxBytes`).
   * Optional in the type so callers that build settings by hand need not repeat it.
   * @default 67108864 (64 MiB)
   */
  maxBodyBytes: z.optional(int(1024, 2 ** 31)),
  /**
   * Send credentials to an `http:` site that is not on this machine (they travel in clear
   * text). Also `--allow-insecure-http`. Optional in the type, like maxBodyBytes.
   * @default false
   */
  allowInsecure: z.optional(z.boolean()),
});

export const pipelineSchema = z.strictObject({
  /** Base URL of the site: the part before `/{lang}/cms-json/`. */
  site: z.optional(webUrl),
  /** Language segments to mirror. */
  languages: z.optional(z.array(languageCode).check(z.minLength(1))),
  /**
   * How an item and its translations pair, for hreflang alternates and the language
   * switcher: `same-id` when the site serves one content set under every language prefix
   * (a translation has the item's id), `none` when each language is a separate site with
   * ids of its own (no pair is claimed: the switcher goes to the other language's home).
   * @default "none"
   */
  translations: z._default(z.enum(['same-id', 'none']), 'none'),
  /** The SQLite cache file. @default "cache/cms-mirror.sqlite" */
  cache: z.optional(nonEmpty),
  /** Where `output/{lang}/` sites are built. @default "output" */
  output: z.optional(nonEmpty),
  /** An Eleventy theme directory to use instead of the built-in one. */
  templates: z.optional(nonEmpty),
  /** Backup mode: also mirror revisions, autosaves and every media binary. @default false */
  backup: z._default(z.boolean(), false),
  auth: z._default(
    z.strictObject({
      /** Environment variable holding the user name. @default "CMS_USER" */
      userEnv: z._default(envName, 'CMS_USER'),
      /** Environment variable holding the application password. @default "CMS_APP_PASSWORD" */
      passwordEnv: z._default(envName, 'CMS_APP_PASSWORD'),
    }),
    { userEnv: 'CMS_USER', passwordEnv: 'CMS_APP_PASSWORD' },
  ),
  http: z._default(httpSchema, {
    concurrency: 6,
    requestsPerSecond: 20,
    timeoutMs: 30_000,
    retries: 5,
  }),
  media: z._default(
    z.strictObject({
      /** Origins besides the site's own that media may be downloaded from. @default [] */
      allowedOrigins: z._default(z.array(webUrl), []),
      /** Largest media file accepted, in bytes. @default 268435456 */
      maxBytes: z._default(z.int().check(z.minimum(1)), 256 * 1024 * 1024),
    }),
    { allowedOrigins: [], maxBytes: 256 * 1024 * 1024 },
  ),
  pull: z._default(
    z.strictObject({
      /**
       * Every Nth pull lists each collection in full, ids and all, instead of only what
       * changed: it finds what counts cannot (a deletion hidden by an item the reader may
       * not read, an item that came back without a newer `modified`). 0 = never; 1 = every
       * pull. @default 20
       */
      fullSweepEvery: z._default(int(0, 1_000_000), 20),
    }),
    { fullSweepEvery: 20 },
  ),
  build: z._default(
    z.strictObject({
      /** Absolute URL the static site will be served from; feeds and sitemaps use it. */
      publicUrl: z.optional(webUrl),
      /** Posts per listing page. @default 10 */
      postsPerPage: z._default(int(1, 1000), 10),
    }),
    { postsPerPage: 10 },
  ),
  transform: z._default(
    z.strictObject({
      /**
       * Remove executable content (scripts, event handlers, frames, forms, ...) from post
       * and page bodies; false keeps them for sites that need their own scripts.
       * @default true
       */
      sanitize: z._default(z.boolean(), true),
    }),
    { sanitize: true },
  ),
  push: z._default(
    z.strictObject({
      /** Where `checkout` writes one file per item. @default "content" */
      dir: z._default(nonEmpty, 'content'),
      /**
       * Batch validation mode. require-all-validate: the server checks every request's
       * arguments before running any (a save-time error still lets the others land).
       * @default "require-all-validate"
       */
      validation: z._default(z.enum(['require-all-validate', 'normal']), 'require-all-validate'),
    }),
    { dir: 'content', validation: 'require-all-validate' },
  ),
});

export type PipelineFile = z.infer<typeof pipelineSchema>;
export type HttpSettings = z.infer<typeof httpSchema>;
/** The `media` section (downloads of media files, not the media collection). */
export type MediaSettings = z.infer<typeof pipelineSchema.shape.media>;
