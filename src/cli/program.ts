import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import type { CliIo } from './run-cli.js';
import { referenceCommand } from './reference-command.js';
import { checkoutCommand } from './checkout-command.js';
import { pushCommand } from './push-command.js';
import { migrateCommand } from './migrate-command.js';
import { watchCommand } from './watch-command.js';
import { pullCommand } from './pull-command.js';
import { statusCommand } from './status-command.js';
import { verifyCommand } from './verify-command.js';
import { backupCommand } from './backup-command.js';
import { diffCommand } from './diff-command.js';
import { restoreCommand } from './restore-command.js';
import { buildCommand } from './build-command.js';
import { runCommand } from './run-command.js';
import { serveCommand } from './serve-command.js';
import { demoCommand } from './demo-command.js';
import { initCommand } from './init-command.js';

const packageJson = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

/**
 * Every command, in the order `--help` lists them, by the name it is invoked with (each
 * factory's `Command` has that name: test/unit/cli/program.test.ts).
 */
const COMMANDS: readonly (readonly [name: string, make: (io: CliIo) => Command])[] = [
  ['reference', referenceCommand],
  ['checkout', checkoutCommand],
  ['push', pushCommand],
  ['migrate', migrateCommand],
  ['watch', watchCommand],
  ['pull', pullCommand],
  ['status', statusCommand],
  ['verify', verifyCommand],
  ['backup', backupCommand],
  ['diff', diffCommand],
  ['restore', restoreCommand],
  ['build', buildCommand],
  ['run', runCommand],
  ['serve', serveCommand],
  ['demo', demoCommand],
  ['init', initCommand],
];

/**
 * The command tree. Each command lives in its own file and only parses, calls and prints; its
 * action imports its stage (undici, better-sqlite3, unified, yaml, chokidar, ...) only when it
 * runs, so `--help` or a `run` does not pay for loading every other command's dependencies.
 *
 * When `argv` starts with a command's name (`run --json ...`), the tree holds that command
 * alone: commander parses a command's arguments and prints its help without looking at its
 * siblings, and building all sixteen with their options was CPU that every run paid for
 * nothing (test/bench/RESULTS.md, i-noop8). Anything else (`--help`, `help run`, no command,
 * a misspelt one that commander suggests a name for) gets every command.
 */
export function buildProgram(io: CliIo, argv: readonly string[] = []): Command {
  const program = new Command('cms-mirror')
    .description(
      'Mirror a multilingual cms-json site into SQLite, build a static site per language, push edits back.',
    )
    .version(packageJson.version)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .exitOverride();
  const named = COMMANDS.find(([name]) => name === argv[0]);
  for (const [, make] of named ? [named] : COMMANDS) {
    program.addCommand(make(io).exitOverride().configureOutput(program.configureOutput()));
  }
  return program;
}
