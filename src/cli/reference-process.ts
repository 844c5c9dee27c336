import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ReferenceSiteError } from '../errors.js';
import type { Credentials } from '../index.js';

export interface ReferenceProcess {
  url: string;
  credentials: Credentials;
  stop(): Promise<void>;
}

/**
 * Starts `cms-mirror reference` as a separate process, as a user would, and reads its URL and
 * demo credentials from the lines it prints. The rest of the tool never imports the reference
 * site: it is just another server to talk to.
 */
export async function startReferenceProcess(args: string[] = []): Promise<ReferenceProcess> {
  // Run from dist/ after tsc, or from src/ under tsx (tests, benchmarks): same directory.
  const fromSource = import.meta.url.endsWith('.ts');
  const main = fileURLToPath(new URL(fromSource ? './main.ts' : './main.js', import.meta.url));
  const execArgv = fromSource ? ['--import', 'tsx'] : [];
  // Node's child_process loaded here: `demo` is in the CLI's first chunk, which every command
  // loads, and a `run` spawns nothing (test/bench/RESULTS.md, i-noop9).
  const { spawn } = process.getBuiltinModule('node:child_process');
  const child = spawn(process.execPath, [...execArgv, main, 'reference', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = await readAnnouncement(child);
  const url = lines.get('Reference site');
  const user = lines.get('CMS_USER');
  const password = lines.get('CMS_APP_PASSWORD');
  if (!url || !user || !password) {
    child.kill('SIGKILL');
    throw new ReferenceSiteError('the reference site did not announce its URL and credentials');
  }
  return {
    url,
    credentials: { user, password },
    stop: () => stopChild(child),
  };
}

function readAnnouncement(child: ChildProcess): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const found = new Map<string, string>();
    let buffer = '';
    let stderr = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const match = /^(Reference site|CMS_USER|CMS_APP_PASSWORD)[:=]\s?(.*)$/.exec(line);
        if (match?.[1] && match[2] !== undefined) found.set(match[1], match[2].trim());
        if (found.size === 3) {
          child.stdout?.off('data', onData);
          child.stdout?.resume();
          resolve(found);
        }
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(
        new ReferenceSiteError(
          `the reference site exited early (code ${code})${stderr ? `: ${stderr.trim().split('\n')[0]}` : ''}`,
        ),
      ),
    );
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
