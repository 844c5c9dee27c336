/**
 * The part of Eleventy 3's programmatic API the build uses. Eleventy ships no types for its
 * main import; these follow `@11ty/eleventy/src/Eleventy.js` and `UserConfig.js` (3.1.x).
 */
declare module '@11ty/eleventy' {
  /** The `eleventyConfig` object a config function receives. */
  export interface EleventyUserConfig {
    addGlobalData(name: string, data: unknown): EleventyUserConfig;
    addFilter(name: string, filter: (...args: never[]) => unknown): void;
    setTemplateFormats(formats: string | string[]): void;
    setUseGitIgnore(enabled: boolean): void;
    setQuietMode(quiet: boolean): void;
    /** `false`: read template files on every build (the cache is per process, not instance). */
    setUseTemplateCache(enabled: boolean): void;
    /** Glob patterns (relative to the project) Eleventy does not process. */
    readonly ignores: Set<string>;
  }

  export interface EleventyOptions {
    /** `false` skips config files (`eleventy.config.js` in the working directory). */
    configPath?: string | false;
    quietMode?: boolean;
    config?: (eleventyConfig: EleventyUserConfig) => void | Promise<void>;
    pathPrefix?: string;
    runMode?: 'build' | 'serve' | 'watch';
    dryRun?: boolean;
  }

  /** One rendered page from `toJSON()`. */
  export interface EleventyPageResult {
    url: string | false;
    inputPath: string;
    outputPath: string | false;
    rawInput: string;
    content: string;
  }

  export default class Eleventy {
    constructor(input?: string, output?: string, options?: EleventyOptions);
    /** Renders every template in memory; writes nothing. */
    toJSON(): Promise<EleventyPageResult[]>;
    write(): Promise<unknown>;
  }
}
