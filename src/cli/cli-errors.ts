/**
 * How a failure reaches the user: one line on stderr (a stack only for a bug), and with
 * `--json` also one object on stdout, in the same shape for every command:
 *
 *   {"error": {"code": "E_CONFIG", "message": "…", "exit": 2}}
 *
 * File-system refusals (read-only mount, permissions, a file where a directory must be, a
 * full disk) are the user's to fix, not bugs: one line naming the path, exit 2.
 */
import { CommanderError } from 'commander';
import { isCmsMirrorError, type ExitCode } from '../errors.js';

export interface CliFailure {
  readonly code: string;
  readonly message: string;
  readonly exit: ExitCode | 0;
  /** Print the stack: an error nobody raised on purpose. */
  readonly internal: boolean;
  /** Commander has already printed it. */
  readonly printed: boolean;
}

const FILE_SYSTEM_REASONS: Readonly<Record<string, string>> = {
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EISDIR: 'it is a directory',
  EEXIST: 'a file is in the way',
  ENAMETOOLONG: 'the name is too long for the file system',
};

export function describeFailure(error: unknown): CliFailure {
  if (error instanceof CommanderError) {
    const shown = ['commander.helpDisplayed', 'commander.version', 'commander.help'];
    const ok = shown.includes(error.code);
    return {
      code: ok ? 'OK' : 'E_USAGE',
      message: error.message.replace(/^error:\s*/, ''),
      exit: ok ? 0 : 2,
      internal: false,
      printed: true,
    };
  }
  if (isCmsMirrorError(error) && error.isUserError) {
    return {
      code: error.code,
      message: oneLine(error.message),
      exit: error.exitCode,
      internal: false,
      printed: false,
    };
  }
  const system = error as { code?: unknown; path?: unknown; syscall?: unknown } | null;
  const reason = typeof system?.code === 'string' ? FILE_SYSTEM_REASONS[system.code] : undefined;
  if (reason !== undefined && typeof system?.path === 'string') {
    return {
      code: 'E_FILE_SYSTEM',
      message: `cannot ${verb(system.syscall)} ${system.path}: ${reason} (${String(system.code)})`,
      exit: 2,
      internal: false,
      printed: false,
    };
  }
  return {
    code: 'E_INTERNAL',
    message: oneLine(error instanceof Error ? error.message : String(error)),
    exit: 1,
    internal: true,
    printed: false,
  };
}

/** The one JSON object a failed `--json` command prints on stdout. */
export function failureJson(failure: CliFailure): string {
  return `${JSON.stringify({ error: { code: failure.code, message: failure.message, exit: failure.exit } })}\n`;
}

/** Whether the command line asks for `--json` (before a `--`). */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

function verb(syscall: unknown): string {
  if (syscall === 'open' || syscall === 'scandir' || syscall === 'stat') return 'open';
  return 'write';
}

function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ');
}
