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
 * The command tree. Each command lives in its own file and only parses, calls and prints; its
 * action imports its stage (undici, better-sqlite3, unified, yaml, chokidar, ...) only when it
 * runs, so `--help` or a `run` does not pay for loading every other command's dependencies.
 */
export function buildProgram(io: CliIo): Command {
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
  for (const command of [
    referenceCommand(io),
    checkoutCommand(io),
    pushCommand(io),
    migrateCommand(io),
    watchCommand(io),
    pullCommand(io),
    statusCommand(io),
    verifyCommand(io),
    backupCommand(io),
    diffCommand(io),
    restoreCommand(io),
    buildCommand(io),
    runCommand(io),
    serveCommand(io),
    demoCommand(io),
    initCommand(io),
  ]) {
    program.addCommand(command.exitOverride().configureOutput(program.configureOutput()));
  }
  return program;
}
