import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runCli, type CliIo } from '../../src/cli/run-cli.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured output; the fastest way to test commands end to end. */
export async function runCliCaptured(
  argv: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        append(chunk.toString());
        callback();
      },
    });
  const io: CliIo = {
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    exitCode: { value: 0 },
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The package's `bin` (the bundled CLI), as `npm install` would run it. */
export function binPath(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  return join(ROOT, pkg.bin['cms-mirror'] ?? 'missing');
}

/**
 * Runs the package's `bin` in a child process (after `npm run build`); rejects with its stderr
 * when it exits with another code than 0.
 */
export function runBin(
  argv: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; nodeArgs?: string[] },
): Promise<{ stdout: string; stderr: string }> {
  const args = [...(options.nodeArgs ?? []), binPath(), ...argv];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { env: options.env, cwd: options.cwd, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${argv[0]} failed: ${stderr.slice(-2000)}`));
        else resolve({ stdout, stderr });
      },
    );
  });
}
