import { buildProgram } from './program.js';
import { describeFailure, failureJson, wantsJson } from './cli-errors.js';

/**
 * The one top-level catch: user errors print one line and their exit code; anything else is a
 * bug and prints its stack with a request to report it. With `--json`, stdout also gets one
 * `{"error": {...}}` object (see cli-errors.ts).
 */
export async function runCli(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  const program = buildProgram(io, argv);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return io.exitCode.value;
  } catch (error) {
    return exitCodeFor(error, io, wantsJson(argv));
  }
}

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Commands that finish with conflicts or partial failures set 3 here instead of throwing. */
  exitCode: { value: number };
}

export function defaultIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    exitCode: { value: 0 },
  };
}

function exitCodeFor(error: unknown, io: CliIo, json: boolean): number {
  const failure = describeFailure(error);
  if (failure.exit === 0) return 0;
  if (json) io.stdout.write(failureJson(failure));
  if (failure.printed) return failure.exit;
  if (!failure.internal) {
    io.stderr.write(`cms-mirror: ${failure.message}\n`);
    return failure.exit;
  }
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr.write(`cms-mirror: internal error — please report it with the lines below\n${stack}\n`);
  return 1;
}

/**
 * `cms-mirror status | head -3`: once the reader has gone, there is nobody to tell anything;
 * the command ends quietly with exit 0 instead of failing with EPIPE.
 */
export function endQuietlyOnClosedPipe(
  stream: NodeJS.WritableStream,
  exit: (code: number) => void,
): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') exit(0);
    else throw error;
  });
}
