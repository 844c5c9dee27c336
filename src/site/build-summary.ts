/** What `runBuild` reports, per language and in total. */
import type { BuildPhases } from './build-site.js';

export interface LanguageBuild {
  written: number;
  unchanged: number;
  removed: number;
  pages: number;
  transformed: number;
  skipped: boolean;
  seconds: number;
  /**
   * Where the language's time went, in seconds: reading and transforming its items, making
   * its model, then the build's own phases (search overlaps render and write).
   */
  phases: LanguagePhases;
  warnings: string[];
  /** Absolute path of the language's home page. */
  index: string;
  /**
   * How the language was planned when it was built: every page (`full`), or only the pages
   * the items changed since its last build touch (`edits`, `edit-build.ts`).
   */
  plan?: 'full' | 'edits';
  /** Pages planned (each rendered unless found current). */
  planned?: number;
}

export interface LanguagePhases extends BuildPhases {
  transform: number;
  model: number;
}

export interface BuildSummary {
  languages: Record<string, LanguageBuild>;
  /**
   * Sums over the languages; `wallSeconds` is the whole build's wall time, which also holds the
   * waits between languages (the transform worker) and the workers' shutdown.
   */
  total: {
    written: number;
    unchanged: number;
    removed: number;
    pages: number;
    seconds: number;
    wallSeconds: number;
  };
}

/** Adds a language's figures to the totals. */
export function addToTotal(summary: BuildSummary, lang: string, result: LanguageBuild): void {
  summary.languages[lang] = result;
  summary.total.written += result.written;
  summary.total.unchanged += result.unchanged;
  summary.total.removed += result.removed;
  summary.total.pages += result.pages;
  summary.total.seconds += result.seconds;
}
