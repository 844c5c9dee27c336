/**
 * The compiled CLI as the benchmarks run it: a child process of its own, so its time and memory
 * are not the benchmark's: the package's `bin` (the bundled CLI). `BENCH_CLI=<path to another build's CLI>` compares a build before
 * and after a change.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const MAIN =
  process.env['BENCH_CLI'] ??
  fileURLToPath(new URL('../../dist/cli/cms-mirror.js', import.meta.url));

/** Runs `main.js ARGS`; resolves with its stdout and wall time, rejects on a non-zero exit. */
export function runCompiledCli(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ wall: number; stdout: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const wall = (performance.now() - started) / 1000;
      if (code === 0) resolve({ wall, stdout });
      else reject(new Error(`${args[0]} exited with ${code}: ${stderr.slice(-2000)}`));
    });
  });
}
