import { fileURLToPath } from 'node:url';

/**
 * The package's default theme. This module sits one level below the package root both as
 * source (`src/site/`) and compiled (`dist/site/`), so `../../templates/` is the theme.
 */
export function defaultTemplatesDir(): string {
  return fileURLToPath(new URL('../../templates/', import.meta.url));
}
