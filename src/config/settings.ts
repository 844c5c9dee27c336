import path from 'node:path';
import type { Credentials } from '../client/options.js';
import { checkCredentialTransport } from '../client/transport-guard.js';
import * as z from 'zod/mini';
import { ConfigError } from '../errors.js';
import { configErrorFromIssues, loadPipelineFile, resolveFromFile } from './load-pipeline.js';
import {
  pipelineSchema,
  type HttpSettings,
  type MediaSettings,
  type PipelineFile,
} from './pipeline-schema.js';

// One credentials type for the settings and the client: held in memory only, never logged.
export type { Credentials };

/** What a command runs with: the pipeline file, overridden by flags, plus credentials from the environment. */
export interface Settings {
  pipelineFile: string | undefined;
  /** Base URL without a trailing slash, or undefined when neither file nor flag gave one. */
  site: string | undefined;
  languages: string[];
  /**
   * The pipeline file's `languages` (before `--lang`): the order languages appear in on every
   * page. @default undefined (no file, or none there): sorted by code
   */
  pipelineLanguages?: string[];
  /** How translations pair (see the pipeline key). @default 'none' */
  translations: Translations;
  cache: string;
  output: string;
  templates: string | undefined;
  backup: boolean;
  http: HttpSettings;
  media: MediaSettings;
  pull: PipelineFile['pull'];
  build: PipelineFile['build'];
  /** Optional so that callers building settings by hand need not repeat the defaults. */
  transform?: PipelineFile['transform'];
  push: PipelineFile['push'];
  credentials: Credentials | undefined;
  /** Names of the variables credentials come from, for messages (never the values). */
  credentialNames: { user: string; password: string };
}

/** Flags shared by the commands; each overrides the pipeline file's setting of the same meaning. */
export interface CommonFlags {
  pipeline?: string;
  site?: string;
  lang?: string;
  cache?: string;
  out?: string;
  templates?: string;
  backup?: boolean;
  /** `pull.fullSweepEvery`. */
  fullSweepEvery?: number;
  translations?: string;
  /** `--allow-insecure-http`: the same as `http.allowInsecure: true`. */
  allowInsecureHttp?: boolean;
}

export type Translations = PipelineFile['translations'];

export const DEFAULT_CACHE = 'cache/cms-mirror.sqlite';
export const DEFAULT_OUTPUT = 'output';

export function resolveSettings(
  flags: CommonFlags,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Settings {
  const file = flags.pipeline;
  const fromFile = file ? loadPipelineFile(path.resolve(cwd, file)) : pipelineSchema.parse({});
  const overrides = parseFlagOverrides(flags);
  const fromFilePath = (value: string | undefined) =>
    value === undefined ? undefined : resolveFromFile(file, value, cwd);
  const fromFlagPath = (value: string | undefined) =>
    value === undefined ? undefined : path.resolve(cwd, value);

  const site = overrides.site ?? fromFile.site;
  const userName = fromFile.auth.userEnv;
  const passwordName = fromFile.auth.passwordEnv;
  return {
    pipelineFile: file ? path.resolve(cwd, file) : undefined,
    site: site === undefined ? undefined : site.replace(/\/+$/, ''),
    languages: overrides.languages ?? fromFile.languages ?? [],
    ...(fromFile.languages !== undefined ? { pipelineLanguages: fromFile.languages } : {}),
    translations: overrides.translations ?? fromFile.translations,
    cache:
      fromFlagPath(flags.cache) ?? fromFilePath(fromFile.cache) ?? path.resolve(cwd, DEFAULT_CACHE),
    output:
      fromFlagPath(flags.out) ?? fromFilePath(fromFile.output) ?? path.resolve(cwd, DEFAULT_OUTPUT),
    templates: fromFlagPath(flags.templates) ?? fromFilePath(fromFile.templates),
    backup: flags.backup ?? fromFile.backup,
    http: flags.allowInsecureHttp ? { ...fromFile.http, allowInsecure: true } : fromFile.http,
    media: fromFile.media,
    pull: { fullSweepEvery: flags.fullSweepEvery ?? fromFile.pull.fullSweepEvery },
    build: fromFile.build,
    transform: fromFile.transform,
    push: {
      ...fromFile.push,
      dir: resolveFromFile(file, fromFile.push.dir, cwd),
    },
    credentials: credentialsFromEnv(env, userName, passwordName),
    credentialNames: { user: userName, password: passwordName },
  };
}

/** Flags go through the same schema as the file, so `--site ftp://x` fails like `site: ftp://x`. */
function parseFlagOverrides(flags: CommonFlags): {
  site?: string;
  languages?: string[];
  translations?: Translations;
} {
  const candidate: Record<string, unknown> = {};
  if (flags.translations !== undefined) candidate.translations = flags.translations;
  if (flags.site !== undefined) candidate.site = flags.site;
  if (flags.lang !== undefined) {
    candidate.languages = flags.lang
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
  }
  const result = z
    .partial(z.pick(pipelineSchema, { site: true, languages: true, translations: true }))
    .safeParse(candidate);
  if (!result.success) {
    const error = configErrorFromIssues('command line', result.error.issues);
    const flag = error.field === 'languages' ? '--lang' : `--${error.field ?? 'site'}`;
    throw new ConfigError(
      error.message.replace(/field "(languages|site|translations)[^"]*"/g, `flag ${flag}`),
      { field: flag },
    );
  }
  return {
    ...(flags.translations !== undefined && result.data.translations !== undefined
      ? { translations: result.data.translations }
      : {}),
    ...(result.data.site !== undefined ? { site: result.data.site } : {}),
    ...(result.data.languages !== undefined ? { languages: result.data.languages } : {}),
  };
}

/**
 * Reads credentials from the environment (never from a pipeline file). Both unset: anonymous.
 * Only one set, or a user name HTTP Basic cannot carry: ConfigError naming the variables,
 * never their values.
 */
export function credentialsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  userName = 'CMS_USER',
  passwordName = 'CMS_APP_PASSWORD',
): Credentials | undefined {
  const user = env[userName]?.trim() ?? '';
  // Application passwords are shown in groups separated by spaces; servers accept them either
  // way, so they are passed on as given (only the surrounding blanks are dropped).
  const password = env[passwordName]?.trim() ?? '';
  if (user === '' && password === '') return undefined;
  if (user === '' || password === '') {
    const missing = user ? passwordName : userName;
    const present = user ? userName : passwordName;
    throw new ConfigError(
      `${present} is set but ${missing} is not: set both, or neither for anonymous access`,
      { field: missing },
    );
  }
  if (user.includes(':')) {
    throw new ConfigError(`${userName} must not contain ":" (HTTP Basic cannot carry it)`, {
      field: userName,
    });
  }
  return { user, password };
}

/** The checks every command that talks to a site shares. */
export function requireSite(settings: Settings): { site: string; languages: string[] } {
  if (!settings.site) {
    throw new ConfigError('no site: give --site URL or "site:" in the pipeline file', {
      field: 'site',
    });
  }
  if (settings.languages.length === 0) {
    throw new ConfigError('no languages: give --lang pl,es or "languages:" in the pipeline file', {
      field: 'languages',
    });
  }
  checkSettingsTransport(settings);
  return { site: settings.site, languages: settings.languages };
}

/**
 * Refuses credentials over plain http to another machine before the command opens the cache
 * or connects (the client checks again when it is made). Exit 2 naming both ways to opt in.
 */
export function checkSettingsTransport(settings: Settings): void {
  if (settings.site === undefined) return;
  checkCredentialTransport({
    site: settings.site,
    credentials: settings.credentials !== undefined,
    allowInsecure: settings.http.allowInsecure,
  });
}
