import path from 'node:path';
import { Command } from 'commander';
import type { CommonFlags } from '../index.js';
import { UsageError } from '../errors.js';
import {
  cacheOption,
  insecureHttpOption,
  jsonOption,
  langOption,
  pipelineOption,
  siteOption,
} from './shared-options.js';
import type { CliIo } from './run-cli.js';

interface RestoreFlags extends CommonFlags {
  item?: string[];
  snapshot?: string;
  revision?: string;
  deletedSince?: string;
  asOf?: string;
  removeNew?: boolean;
  dryRun?: boolean;
  force?: boolean;
  json?: boolean;
}

const HELP_AFTER = `
Puts content back on the site, through its REST interface, with one of:
  --item TYPE/ID [--item ...] [--snapshot FILE]
                       each item as the snapshot holds it, or as it was before its latest
                       change in the cache's kept history
  --item TYPE/ID --revision ID
                       roll title, content and excerpt back to a revision of the backup
  --deleted-since TIME every item the kept history shows trashed or deleted after TIME
  --as-of TIME         every item changed since TIME back to its state at TIME; items
                       created since are listed (trashed with --remove-new: posts and pages
                       only, never media)
TIME: ISO 8601 with Z or an offset (2026-11-24T06:00:00Z) or a duration back from now (24h, 7d).
A trashed item comes out of the trash (same id, old slug); an item deleted for good is created
again under a new id (files uploaded again from the backup), its children and the links to it
moved to the new id. An item changed on the site while restore runs is a conflict, not
overwritten unless --force. Needs a cache pulled with credentials and --backup.
Exit codes: 0 done, 3 conflicts or failed items, 2 bad input (nothing sent).`;

export function restoreCommand(io: CliIo): Command {
  const command = new Command('restore').description(
    'put content back on the site from the kept history, a snapshot or a revision',
  );
  cacheOption(pipelineOption(command), 'SQLite cache (pulled with credentials and --backup)');
  langOption(command, 'languages to restore (one for --item)');
  siteOption(command);
  command
    .option('--item <type/id>', 'an item to put back, e.g. posts/123 (repeatable)', collect, [])
    .option('--snapshot <file>', 'take the items from this snapshot (a "backup --to" file)')
    .option('--revision <id>', 'roll the item back to this revision')
    .option('--deleted-since <time>', 'put back every item trashed or deleted after TIME')
    .option('--as-of <time>', 'put every item changed since TIME back as it was at TIME')
    .option('--remove-new', 'with --as-of: trash posts and pages created since TIME')
    .option('--dry-run', 'print what would be done; send only reads')
    .option('--force', 'overwrite items changed on the site while restore runs');
  return jsonOption(insecureHttpOption(command), 'report on stdout')
    .addHelpText('after', HELP_AFTER)
    .action(async (flags: RestoreFlags) => {
      const [{ resolveSettings, restore }, { formatRestore }] = await Promise.all([
        import('../index.js'),
        import('../restore/index.js'),
      ]);
      const report = await restore({
        settings: resolveSettings(flags, io.env, io.cwd),
        items: flags.item ?? [],
        snapshot: flags.snapshot === undefined ? undefined : path.resolve(io.cwd, flags.snapshot),
        revision: flags.revision === undefined ? undefined : revisionId(flags.revision),
        deletedSince: flags.deletedSince,
        asOf: flags.asOf,
        removeNew: flags.removeNew,
        dryRun: flags.dryRun,
        force: flags.force,
        ...(flags.json ? {} : { onLine: (line: string) => io.stderr.write(`${line}\n`) }),
      });
      if (flags.json) io.stdout.write(`${JSON.stringify(report)}\n`);
      else io.stdout.write(`${formatRestore(report).join('\n')}\n`);
      io.exitCode.value = report.conflicts + report.failed > 0 ? 3 : 0;
    });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function revisionId(text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1)
    throw new UsageError(`--revision: expected a revision id such as 456, got "${text}"`);
  return Number(text);
}
