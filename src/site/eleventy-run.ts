/**
 * One Eleventy run over a theme (its programmatic API, in memory: `toJSON()`), started before
 * its pages are known. Most of a run's work does not depend on them: Eleventy's config and
 * plugins, its Nunjucks engine, the walk of the theme, the templates' front matter. The run
 * asks for its `cms` global only once that is done, and the jobs come with `finish`: a render
 * worker that starts the run while the build still plans (`jobRenderer`) answers the pages'
 * request with only the rest of the run to do (issue 17, the one-edit run).
 */
import path from 'node:path';
import type { EleventyPageResult, EleventyUserConfig } from '@11ty/eleventy';
import { relativeSitePath } from '../transform/index.js';
import type { NunjucksCompileCache } from './nunjucks-compile-cache.js';
import type { CmsGlobalData } from './template-data.js';

/**
 * Template formats a theme may use; the default theme is Nunjucks. Markdown and plain HTML
 * are left out on purpose: a theme's README.md or an HTML snippet under `assets/` must not
 * turn into pages.
 */
const TEMPLATE_FORMATS = ['njk', '11ty.js', 'liquid'];

/** What a run renders from, and the directory Eleventy is given as its output. */
export interface RenderTarget {
  readonly templatesDir: string;
  /** Eleventy's output directory (nothing is written there; a theme may read its path). */
  readonly outDir: string;
}

export interface EleventyRun {
  readonly target: RenderTarget;
  /** Resolves once the run waits for its `cms` global (the theme walked), or has ended. */
  readonly waiting: Promise<void>;
  /** Gives the run its `cms` global (at most once); resolves with what Eleventy rendered. */
  finish(cms: CmsGlobalData): Promise<EleventyPageResult[]>;
  /** Ends a run that was not finished, rendering nothing; resolves once it has stopped. */
  cancel(): Promise<void>;
}

/**
 * Rejects the `cms` global of a cancelled run. Marked as Eleventy marks an error it has
 * reported already, so that its handler prints nothing for it.
 */
class CancelledRun extends Error {
  constructor() {
    super('The Eleventy run was cancelled before its pages were given');
    Object.defineProperty(this, '__errorAlreadyLogged', { value: true });
  }
}

/**
 * Starts the run now. With `compiles`, Nunjucks' compiled code is taken from and kept in it for
 * the whole run (`NunjucksCompileCache.around`). Errors surface from `finish`.
 */
export function startEleventyRun(
  target: RenderTarget,
  compiles?: NunjucksCompileCache,
): EleventyRun {
  let give!: (cms: CmsGlobalData) => void;
  let withhold!: (error: Error) => void;
  const cms = new Promise<CmsGlobalData>((resolve, reject) => {
    give = resolve;
    withhold = reject;
  });
  // A run cancelled before Eleventy asks for its global: the rejection is Eleventy's to see.
  cms.catch(() => undefined);
  let asked!: () => void;
  const waiting = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const execute = async (): Promise<EleventyPageResult[]> => {
    // Loaded on first use: importing Eleventy takes about half a second, which a run that
    // renders nothing (nothing changed) should not pay.
    const { default: Eleventy } = await import('@11ty/eleventy');
    const eleventy = new Eleventy(target.templatesDir, target.outDir, {
      configPath: false,
      quietMode: true,
      config(config: EleventyUserConfig) {
        config.setUseGitIgnore(false);
        // Eleventy caches template files per process, across instances: a theme edited while
        // `watch` runs would otherwise render from the stale copy.
        config.setUseTemplateCache(false);
        config.setTemplateFormats(TEMPLATE_FORMATS);
        // Eleventy reads ignore globs relative to the working directory.
        const assets = path
          .relative(process.cwd(), path.join(target.templatesDir, 'assets'))
          .split(path.sep)
          .join('/');
        config.ignores.add(`${assets}/**`);
        // A function: Eleventy awaits it when it first needs global data, with every template
        // of the theme found by then.
        config.addGlobalData('cms', () => {
          readFrontMatters(eleventy);
          asked();
          return cms;
        });
        config.addFilter('relUrl', ((to: string, from: string) =>
          relativeSitePath(from, to)) as never);
      },
    });
    return eleventy.toJSON();
  };
  const results = compiles ? compiles.around(execute) : execute();
  // Until `finish` awaits it, a failure is reported there, not as an unhandled rejection.
  results.then(asked, asked);
  return {
    target,
    waiting,
    finish(data) {
      give(data);
      return results;
    },
    async cancel() {
      withhold(new CancelledRun());
      await results.catch(() => undefined);
    },
  };
}

interface FrontMatterSource {
  getFrontMatterData?: () => Promise<unknown>;
}

/**
 * Has every template of the run read and parse its front matter now, while the run waits for
 * its `cms` global: Eleventy does it only after that wait (`Template#getData` awaits the global
 * data first), and a theme's `---js` front matter is parsed with acorn and run in a `vm` context
 * of its own (~40 ms for the default theme's five). Each template keeps the one parse it makes
 * (`getFrontMatterData` caches its promise), so this only moves that work earlier; its failure
 * is reported by Eleventy where it would have been. The templates are Eleventy 3's own
 * (`TemplateWriter._templatePathCache`): with another shape, nothing is read early.
 */
function readFrontMatters(eleventy: object): void {
  const writer = (eleventy as { writer?: { _templatePathCache?: unknown } }).writer;
  const templates = writer?._templatePathCache;
  if (!(templates instanceof Map)) return;
  for (const template of templates.values() as Iterable<FrontMatterSource>) {
    if (typeof template?.getFrontMatterData !== 'function') continue;
    template.getFrontMatterData().catch(() => undefined);
  }
}
