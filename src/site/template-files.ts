/**
 * The theme directory as the build sees it: one digest of every file (a theme change
 * re-renders every page; a pull that changed nothing with an unchanged theme skips the
 * build), and the static files under `assets/` that are copied as they are.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { digestOf, sha256 } from './digest.js';

/** The directory of the theme's static files in the output (and in the templates dir). */
export const ASSETS_DIR = 'assets';

export interface ThemeAsset {
  /** Output file relative to the language root (`assets/style.css`). */
  file: string;
  sha256: string;
  /** Absolute path of the source. */
  source: string;
}

export interface TemplatesScan {
  dir: string;
  hash: string;
  assets: ThemeAsset[];
}

/** Never part of a theme. */
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git']);

/**
 * @throws {ConfigError} `E_CONFIG` when `dir` is not a readable directory.
 */
export function scanTemplates(dir: string): TemplatesScan {
  const root = path.resolve(dir);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(root);
  } catch (error) {
    throw new ConfigError(
      `The templates directory ${root} does not exist.`,
      { field: 'templates' },
      { cause: error },
    );
  }
  if (!stat.isDirectory()) {
    throw new ConfigError(`The templates path ${root} is not a directory.`, { field: 'templates' });
  }
  const files: [string, string][] = [];
  const assets: ThemeAsset[] = [];
  const walk = (directory: string, relative: string): void => {
    const entries = fs.readdirSync(directory, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const source = path.join(directory, entry.name);
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(source, name);
      } else if (entry.isFile()) {
        const hash = sha256(fs.readFileSync(source));
        files.push([name, hash]);
        if (name.startsWith(`${ASSETS_DIR}/`)) assets.push({ file: name, sha256: hash, source });
      }
    }
  };
  walk(root, '');
  return { dir: root, hash: digestOf(files), assets };
}

/**
 * The theme's digest (`scanTemplates`), undefined when the directory cannot be read: a
 * renderer compares it before and after work that reads the theme, to know nothing changed.
 */
export function themeDigest(dir: string): string | undefined {
  try {
    return scanTemplates(dir).hash;
  } catch {
    return undefined;
  }
}
