import { CommanderError } from 'commander';
import { isCmsMirrorError } from '../errors.js';
import { buildProgram } from './program.js';

/**
 * The one top-level catch: user errors print one line and their exit code; anything else is a
 * bug and prints its stack with a request to report it.
 */
export async function runCli(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return io.exitCode.value;
  } catch (error) {
    return exitCodeFor(error, io);
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

function exitCodeFor(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) {
    // Commander has already printed its message (or the help text).
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
    if (error.code === 'commander.help') return 0;
    return 2;
  }
  if (isCmsMirrorError(error) && error.isUserError) {
    io.stderr.write(`cms-mirror: ${oneLine(error.message)}\n`);
    return error.exitCode;
  }
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr.write(`cms-mirror: internal error — please report it with the lines below\n${stack}\n`);
  return 1;
}

function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ');
}
