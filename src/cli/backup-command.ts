import path from 'node:path';
import { Command } from 'commander';
import type { CommonFlags } from '../index.js';
import { formatBytes } from './pull-command.js';
import type { CliIo } from './run-cli.js';
import { cacheOption, jsonOption, pipelineOption } from './shared-options.js';

interface BackupFlags extends CommonFlags {
  to: string;
  json?: boolean;
}

export function backupCommand(io: CliIo): Command {
  const command = new Command('backup')
    .description(
      'write a consistent snapshot of the cache to a file (SQLite online backup; safe while a pull runs)',
    )
    .requiredOption('--to <file>', 'the snapshot file to write');
  return jsonOption(cacheOption(pipelineOption(command))).action(async (flags: BackupFlags) => {
    const { resolveSettings, backup } = await import('../index.js');
    const settings = resolveSettings(flags, io.env, io.cwd);
    const result = await backup({ settings, to: path.resolve(io.cwd, flags.to) });
    if (flags.json) {
      io.stdout.write(`${JSON.stringify(result)}\n`);
      return;
    }
    io.stdout.write(`backup: wrote ${result.file} (${formatBytes(result.bytes)})\n`);
  });
}
