/**
 * The pipeline file `cms-mirror init` writes: every setting, each with a comment saying what
 * it does and its default, the site and languages given, and no credentials. The values come
 * from the schema's own defaults, so the file and the schema cannot drift apart (a test loads
 * the written file back through `resolveSettings`).
 */
import { writeFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { DEFAULT_MAX_BODY_BYTES, pipelineSchema } from './pipeline-schema.js';
import { DEFAULT_CACHE, DEFAULT_OUTPUT } from './settings.js';

export interface PipelineTextOptions {
  /** Base URL of the site; written commented out (to fill in) when undefined. */
  readonly site?: string | undefined;
  /** Language segments; written commented out (to fill in) when undefined or empty. */
  readonly languages?: readonly string[] | undefined;
}

type Defaults = ReturnType<typeof pipelineSchema.parse>;

const yamlString = (value: string): string => JSON.stringify(value);

/** The commented YAML text of a pipeline file with every setting at its default. Pure. */
export function pipelineText(options: PipelineTextOptions = {}): string {
  const d = pipelineSchema.parse({});
  return [
    ...headerLines(),
    ...siteLines(options),
    ...storageLines(d),
    ...httpLines(d),
    ...mediaAndPullLines(d),
    ...outputLines(d),
  ].join('\n');
}

function headerLines(): string[] {
  return [
    '# cms-mirror pipeline file, written by `cms-mirror init`.',
    '# Use it with: cms-mirror <command> --pipeline THIS_FILE',
    '# Paths are relative to this file. Command-line flags (--site, --lang, --cache, --out)',
    '# override the settings of the same meaning. Unknown keys are errors, so a typo never',
    '# silently falls back to a default.',
    '#',
    '# Credentials never go in this file. Set them in the environment, as an application',
    '# password created on the site:',
    '#   CMS_USER=<user name>  CMS_APP_PASSWORD=<application password>',
    '# (or the variables named under `auth` below). Without them cms-mirror reads only',
    '# published content; drafts, backups (revisions, autosaves) and push need them.',
    '',
  ];
}

function siteLines(options: PipelineTextOptions): string[] {
  const languages = options.languages ?? [];
  return [
    '# Base URL of the site: the part before /{lang}/cms-json/. Required.',
    options.site === undefined
      ? '# site: https://example.org'
      : `site: ${yamlString(options.site)}`,
    '',
    '# Language segments to mirror: each has its API under {site}/{lang}/cms-json/ and is',
    '# built to {output}/{lang}/. Required.',
    languages.length === 0 ? '# languages: [pl, es]' : `languages: [${languages.join(', ')}]`,
    '',
  ];
}

/** Translations, the cache, the output, the theme, backup mode and the credential names. */
function storageLines(d: Defaults): string[] {
  return [
    '# How translations pair for hreflang and the language switcher: same-id when the site',
    '# serves one content set under every language (a translation has the same id), none when',
    '# each language is a separate site with ids of its own (the switcher goes to the other',
    `# language's home). Default: ${d.translations}`,
    `translations: ${d.translations}`,
    '',
    `# The SQLite cache: the local copy of the site, the source of every build. Default: ${DEFAULT_CACHE}`,
    `cache: ${yamlString(DEFAULT_CACHE)}`,
    '',
    `# Where the static sites are built, one directory per language. Default: ${DEFAULT_OUTPUT}`,
    `output: ${yamlString(DEFAULT_OUTPUT)}`,
    '',
    '# An Eleventy theme directory to use instead of the built-in one. Default: the built-in theme.',
    '# templates: my-theme',
    '',
    '# Backup mode: pull also mirrors revisions, autosaves and every media binary (needs',
    `# credentials). Default: ${String(d.backup)}`,
    `backup: ${String(d.backup)}`,
    '',
    '# Names of the environment variables that hold the credentials (the names, never the values).',
    'auth:',
    `  # Variable holding the user name. Default: ${d.auth.userEnv}`,
    `  userEnv: ${d.auth.userEnv}`,
    `  # Variable holding the application password. Default: ${d.auth.passwordEnv}`,
    `  passwordEnv: ${d.auth.passwordEnv}`,
    '',
  ];
}

function httpLines(d: Defaults): string[] {
  return [
    '# How cms-mirror talks to the site.',
    'http:',
    `  # Requests in flight at once, per language. Default: ${d.http.concurrency}`,
    `  concurrency: ${d.http.concurrency}`,
    `  # Requests per second, per language (retries included); 0 means unlimited. Default: ${d.http.requestsPerSecond}`,
    `  requestsPerSecond: ${d.http.requestsPerSecond}`,
    `  # Time one request may take, in milliseconds. Default: ${d.http.timeoutMs}`,
    `  timeoutMs: ${d.http.timeoutMs}`,
    `  # Retries after the first try on network errors, 5xx, 408 and 429. Default: ${d.http.retries}`,
    `  retries: ${d.http.retries}`,
    '  # Longest wait a server may ask for with Retry-After, in milliseconds; a server that',
    '  # asks for more stops the request at once with an error. Default: 60000',
    '  retryAfterMaxMs: 60000',
    '  # Largest API answer accepted, in bytes; a bigger one stops the run with an error.',
    `  # Default: ${DEFAULT_MAX_BODY_BYTES} (64 MiB)`,
    `  maxBodyBytes: ${DEFAULT_MAX_BODY_BYTES}`,
    '  # Send credentials to an http: site that is not this machine, in clear text (also',
    '  # --allow-insecure-http). Use https instead when you can. Default: false',
    '  allowInsecure: false',
    '',
  ];
}

function mediaAndPullLines(d: Defaults): string[] {
  return [
    '# Media files (images and other uploads) downloaded into the cache.',
    'media:',
    "  # Origins besides the site's own that media may be downloaded from, e.g.",
    '  # ["https://cdn.example.org"]. Others stay links to the remote file. Default: []',
    `  allowedOrigins: []`,
    `  # Largest media file accepted, in bytes. Default: ${d.media.maxBytes} (256 MiB)`,
    `  maxBytes: ${d.media.maxBytes}`,
    '',
    '# How the pull finds deletions.',
    'pull:',
    '  # Every Nth pull after a full listing lists every collection in full again: it finds a',
    '  # deletion that counts cannot show (the site counting items this reader cannot read).',
    `  # 0 = never. Default: ${d.pull.fullSweepEvery}`,
    `  fullSweepEvery: ${d.pull.fullSweepEvery}`,
    '',
  ];
}

/** The static sites, the transform and push. */
function outputLines(d: Defaults): string[] {
  return [
    '# The static sites.',
    'build:',
    '  # Absolute URL the static site will be served from; feeds, sitemaps and canonical',
    "  # links use it. Default: the site's own URL.",
    '  # publicUrl: https://static.example.org',
    `  # Posts per listing page (home page and archives). Default: ${d.build.postsPerPage}`,
    `  postsPerPage: ${d.build.postsPerPage}`,
    '',
    '# How post and page bodies become pages.',
    'transform:',
    '  # Remove executable content (scripts, event handlers, frames, forms, inline SVG, ...)',
    '  # from bodies; false keeps them, for sites that need their own scripts. Default: true',
    `  sanitize: ${String(d.transform.sanitize)}`,
    '',
    '# Local edits sent back to the site.',
    'push:',
    `  # Where \`checkout\` writes one file per post and page. Default: ${d.push.dir}`,
    `  dir: ${yamlString(d.push.dir)}`,
    '  # Batch validation: require-all-validate sends nothing if any edit fails the',
    "  # server's argument checks; an error found only when saving (an unknown author)",
    '  # still lets the other edits land, and push reports it per file. normal writes',
    `  # every edit that passes. Default: ${d.push.validation}`,
    `  validation: ${d.push.validation}`,
    '',
  ];
}

export interface WritePipelineOptions {
  /** Replace an existing file. @default false */
  readonly force?: boolean;
}

/**
 * Writes `text` to `file`. Without `force` an existing file is never touched: the exclusive
 * create also closes the gap between checking and writing.
 * @throws ConfigError naming the file when it exists (without force) or cannot be written.
 */
export function writePipelineFile(
  file: string,
  text: string,
  options: WritePipelineOptions = {},
): void {
  try {
    writeFileSync(file, text, { encoding: 'utf8', flag: options.force ? 'w' : 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw existsError(file, error);
    throw new ConfigError(
      `${file}: cannot write the pipeline file (${code ?? 'error'})`,
      { file },
      { cause: error },
    );
  }
}

/** The refusal for an existing file, shared by the early check and the write itself. */
export function existsError(file: string, cause?: unknown): ConfigError {
  return new ConfigError(
    `${file} already exists: give --force to overwrite it, or --out another file`,
    { file },
    cause === undefined ? {} : { cause },
  );
}
