import { z } from 'zod';

/**
 * The pipeline file: everything a scheduled run needs to know, except credentials, which come
 * from the environment (the file names the variables, never the values).
 * Unknown keys are errors: a typo must not silently fall back to a default.
 */
const languageCode = z
  .string()
  .regex(/^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i, 'a language segment such as "pl" or "es"');

const envName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/i, 'an environment variable name');

/** Largest API response body accepted when `http.maxBodyBytes` is not set (64 MiB). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

export const httpSchema = z
  .object({
    /** Requests in flight at once, per language. @default 6 */
    concurrency: z.number().int().min(1).max(64).default(6),
    /** Requests per second, per language; 0 means unlimited. @default 20 */
    requestsPerSecond: z.number().min(0).max(10_000).default(20),
    /** Per-request timeout in milliseconds. @default 30000 */
    timeoutMs: z.number().int().min(100).max(600_000).default(30_000),
    /** Retries after the first try on network errors, 5xx, 408 and 429. @default 5 */
    retries: z.number().int().min(0).max(20).default(5),
    /**
     * Longest wait a server may ask for with `Retry-After` on a 429 or 5xx, in milliseconds.
     * A server that asks for more is not waited for: the request stops at once with an error
     * naming the URL and the wait asked. Optional in the type, like `maxBodyBytes`.
     * @default 60000
     */
    retryAfterMaxMs: z.number().int().min(0).max(3_600_000).optional(),
    /**
     * Largest API response body accepted, in bytes; a bigger answer is refused (exit 2), never
     * buffered. Media downloads have their own limit (`media.maxBytes`).
     * Optional in the type so callers that build settings by hand need not repeat it.
     * @default 67108864 (64 MiB)
     */
    maxBodyBytes: z
      .number()
      .int()
      .min(1024)
      .max(2 ** 31)
      .optional(),
    /**
     * Send credentials to an `http:` site that is not on this machine (they travel in clear
     * text). Also `--allow-insecure-http`. Optional in the type, like maxBodyBytes.
     * @default false
     */
    allowInsecure: z.boolean().optional(),
  })
  .strict();

export const pipelineSchema = z
  .object({
    /** Base URL of the site: the part before `/{lang}/cms-json/`. */
    site: z.url({ protocol: /^https?$/ }).optional(),
    /** Language segments to mirror. */
    languages: z.array(languageCode).min(1).optional(),
    /**
     * How an item and its translations pair, for hreflang alternates and the language
     * switcher: `same-id` when the site serves one content set under every language prefix
     * (a translation has the item's id), `none` when each language is a separate site with
     * ids of its own (no pair is claimed: the switcher goes to the other language's home).
     * @default "none"
     */
    translations: z.enum(['same-id', 'none']).default('none'),
    /** The SQLite cache file. @default "cache/cms-mirror.sqlite" */
    cache: z.string().min(1).optional(),
    /** Where `output/{lang}/` sites are built. @default "output" */
    output: z.string().min(1).optional(),
    /** An Eleventy theme directory to use instead of the built-in one. */
    templates: z.string().min(1).optional(),
    /** Backup mode: also mirror revisions, autosaves and every media binary. @default false */
    backup: z.boolean().default(false),
    auth: z
      .object({
        /** Environment variable holding the user name. @default "CMS_USER" */
        userEnv: envName.default('CMS_USER'),
        /** Environment variable holding the application password. @default "CMS_APP_PASSWORD" */
        passwordEnv: envName.default('CMS_APP_PASSWORD'),
      })
      .strict()
      .default({ userEnv: 'CMS_USER', passwordEnv: 'CMS_APP_PASSWORD' }),
    http: httpSchema.default({
      concurrency: 6,
      requestsPerSecond: 20,
      timeoutMs: 30_000,
      retries: 5,
    }),
    media: z
      .object({
        /** Origins besides the site's own that media may be downloaded from. @default [] */
        allowedOrigins: z.array(z.url({ protocol: /^https?$/ })).default([]),
        /** Largest media file accepted, in bytes. @default 268435456 */
        maxBytes: z
          .number()
          .int()
          .min(1)
          .default(256 * 1024 * 1024),
      })
      .strict()
      .default({ allowedOrigins: [], maxBytes: 256 * 1024 * 1024 }),
    pull: z
      .object({
        /**
         * Every Nth pull lists each collection in full, ids and all, instead of only what
         * changed: it finds what counts cannot (a deletion hidden by an item the reader may
         * not read, an item that came back without a newer `modified`). 0 = never; 1 = every
         * pull. @default 20
         */
        fullSweepEvery: z.number().int().min(0).max(1_000_000).default(20),
      })
      .strict()
      .default({ fullSweepEvery: 20 }),
    build: z
      .object({
        /** Absolute URL the static site will be served from; feeds and sitemaps use it. */
        publicUrl: z.url({ protocol: /^https?$/ }).optional(),
        /** Posts per listing page. @default 10 */
        postsPerPage: z.number().int().min(1).max(1000).default(10),
      })
      .strict()
      .default({ postsPerPage: 10 }),
    transform: z
      .object({
        /**
         * Remove executable content (scripts, event handlers, frames, forms, ...) from post
         * and page bodies; false keeps them for sites that need their own scripts.
         * @default true
         */
        sanitize: z.boolean().default(true),
      })
      .strict()
      .default({ sanitize: true }),
    push: z
      .object({
        /** Where `checkout` writes one file per item. @default "content" */
        dir: z.string().min(1).default('content'),
        /**
         * Batch validation mode. require-all-validate: the server checks every request's
         * arguments before running any (a save-time error still lets the others land).
         * @default "require-all-validate"
         */
        validation: z.enum(['require-all-validate', 'normal']).default('require-all-validate'),
      })
      .strict()
      .default({ dir: 'content', validation: 'require-all-validate' }),
  })
  .strict();

export type PipelineFile = z.infer<typeof pipelineSchema>;
export type HttpSettings = z.infer<typeof httpSchema>;
/** The `media` section (downloads of media files, not the media collection). */
export type MediaSettings = z.infer<typeof pipelineSchema.shape.media>;
