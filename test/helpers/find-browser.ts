/**
 * Where the browser tests get a Chromium, the way users have one, in this order:
 *   1. `CHROMIUM_PATH`: an executable you name (an error if it is not one);
 *   2. the system's: `chromium`, `chromium-browser`, `google-chrome`, `google-chrome-stable`
 *      on `PATH`;
 *   3. the npm registry's: the devDependency `@sparticuz/chromium` (a headless Chromium that
 *      `npm install` brings; unpacked to the temp directory on first use).
 * When none is found, the error is one line saying how to get one.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

export interface FoundBrowser {
  readonly executablePath: string;
  /** Launch arguments the binary needs besides the tests' own. */
  readonly args: readonly string[];
  /** Where it came from, for messages. */
  readonly source: 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';
}

export const SYSTEM_BROWSERS = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
];

export const NO_BROWSER_MESSAGE =
  'No Chromium for the browser tests: set CHROMIUM_PATH=/path/to/chromium, install one ' +
  '(Debian/Ubuntu: apt-get install chromium), or run "npm install" (it brings @sparticuz/chromium).';

/**
 * Flags of `@sparticuz/chromium` left out: those that loosen what a page may do (the tests
 * check the site as a visitor's browser sees it), and `--single-process`, with which the
 * browser dies when the tests open a second context after closing the first.
 */
const LEFT_OUT = new Set([
  '--single-process',
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--disable-site-isolation-trials',
]);

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first of `names` found on `searchPath`, as `which` finds it. */
export function onPath(names: readonly string[], searchPath: string): string | undefined {
  const dirs = searchPath.split(path.delimiter).filter(Boolean);
  for (const name of names) {
    for (const dir of dirs) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

interface SparticuzChromium {
  executablePath(): Promise<string>;
  readonly args: string[];
}

async function fromNpm(): Promise<FoundBrowser | undefined> {
  let chromium: SparticuzChromium;
  try {
    // A variable name keeps the type checker from requiring the optional package.
    const name = '@sparticuz/chromium';
    chromium = ((await import(name)) as { default: SparticuzChromium }).default;
  } catch {
    return undefined;
  }
  const executablePath = await chromium.executablePath();
  return {
    executablePath,
    args: chromium.args.filter((arg) => !LEFT_OUT.has(arg)),
    source: '@sparticuz/chromium',
  };
}

/** @throws {Error} with NO_BROWSER_MESSAGE (or a bad CHROMIUM_PATH) when none is found. */
export async function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  npmChromium: () => Promise<FoundBrowser | undefined> = fromNpm,
): Promise<FoundBrowser> {
  const named = env.CHROMIUM_PATH?.trim();
  if (named) {
    if (!isExecutable(named))
      throw new Error(`CHROMIUM_PATH=${named} is not an executable file. ${NO_BROWSER_MESSAGE}`);
    return { executablePath: named, args: [], source: 'CHROMIUM_PATH' };
  }
  const system = onPath(SYSTEM_BROWSERS, env.PATH ?? '');
  if (system) return { executablePath: system, args: [], source: 'system' };
  const npm = await npmChromium();
  if (npm) return npm;
  throw new Error(NO_BROWSER_MESSAGE);
}
