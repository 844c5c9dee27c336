/**
 * Child-process runs of the CLI for the crash scenarios: start a command, SIGKILL it the
 * moment the reference site receives a given request (counted from the site's request log),
 * and pick those moments with a seeded RNG so a failure can be reproduced exactly.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RequestLogEntry } from '../../src/reference/index.js';
import { createRng } from '../../src/reference/rng.js';
import type { ReferenceSite } from './reference.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST_MAIN = path.join(ROOT, 'dist', 'cli', 'main.js');
const SRC_MAIN = path.join(ROOT, 'src', 'cli', 'main.ts');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const parent = (entry as { parentPath?: string }).parentPath ?? dir;
    newest = Math.max(newest, statSync(path.join(parent, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * How to start the CLI: the compiled `dist/cli/main.js` when it is newer than every source
 * file (`npm test` builds first; it starts in about half the time), else the sources via tsx,
 * so a run of vitest alone never tests stale code.
 */
export function cliArgs(): string[] {
  if (existsSync(DIST_MAIN) && statSync(DIST_MAIN).mtimeMs >= newestMtime(path.join(ROOT, 'src')))
    return [DIST_MAIN];
  // tsx from this project, whatever the child's working directory.
  const tsx = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  return ['--import', tsx, SRC_MAIN];
}

export interface ChildResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Requests the site received from this run (counted until the process ended). */
  readonly requests: number;
  /** The request on whose arrival the child was killed (with its 1-based place in the run). */
  readonly killedOn?: { readonly entry: RequestLogEntry; readonly index: number } | undefined;
}

export interface ChildOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** The site whose request log decides the kill. */
  readonly site: ReferenceSite;
  /** SIGKILL the child when the site receives its n-th request of this run (1-based). */
  readonly killAt?: number;
  /** SIGKILL the child at the first request of this run for which this returns true. */
  readonly killWhen?: (entry: RequestLogEntry) => boolean;
  /** Starts the node command line through another program (e.g. a shell setting limits). */
  readonly wrap?: (command: readonly string[]) => { file: string; args: string[] };
  /** Run as this user and group (root only). */
  readonly uid?: number;
  readonly gid?: number;
}

/**
 * Calls `listener` synchronously for every request `site` receives, by wrapping the push of
 * its request log (the reference logs a request the moment it arrives, before answering).
 * Returns the function that removes the wrapper.
 */
export function onRequest(site: ReferenceSite, listener: () => void): () => void {
  const log = site.requests;
  const original = log.push;
  const wrapped = function (this: typeof log, ...entries: typeof log): number {
    const length = original.apply(this, entries);
    for (let i = 0; i < entries.length; i++) listener();
    return length;
  };
  Object.defineProperty(log, 'push', { value: wrapped, configurable: true, writable: true });
  return () => {
    Object.defineProperty(log, 'push', { value: original, configurable: true, writable: true });
  };
}

/** Runs `cms-mirror …argv` in a child process; kills it at `killAt` requests when given. */
export function runChild(argv: readonly string[], options: ChildOptions): Promise<ChildResult> {
  const command = [process.execPath, ...cliArgs(), ...argv];
  const started = options.wrap
    ? options.wrap(command)
    : { file: command[0]!, args: command.slice(1) };
  const child = spawn(started.file, started.args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid !== undefined ? { uid: options.uid } : {}),
    ...(options.gid !== undefined ? { gid: options.gid } : {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let seen = 0;
  let killedOn: ChildResult['killedOn'];
  const log = options.site.requests;
  const count = () => {
    seen += 1;
    if (killedOn !== undefined) return;
    const entry = log[log.length - 1]!;
    if (seen === options.killAt || options.killWhen?.(entry) === true) {
      killedOn = { entry, index: seen };
      child.kill('SIGKILL');
    }
  };
  const removers = [onRequest(options.site, count)];
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      for (const remove of removers) remove();
      reject(error);
    });
    child.once('exit', (code, signal) => {
      for (const remove of removers) remove();
      resolve({ code, signal, stdout, stderr, requests: seen, killedOn });
    });
  });
}

/**
 * `count` distinct kill moments in [1, limit], sorted, drawn from `seed`: the same seed
 * gives the same moments on every machine.
 */
export function killMoments(seed: number, count: number, limit: number): number[] {
  if (limit < count) throw new RangeError(`cannot pick ${count} moments out of ${limit}`);
  const rng = createRng(seed);
  const moments = new Set<number>();
  while (moments.size < count) moments.add(1 + Math.floor(rng() * limit));
  return [...moments].sort((a, b) => a - b);
}

/** `count` kill points in [1, limit], repeats allowed, in draw order (one per round). */
export function killPoints(seed: number, count: number, limit: number): number[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, () => 1 + Math.floor(rng() * limit));
}
