import { Writable } from 'node:stream';
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
