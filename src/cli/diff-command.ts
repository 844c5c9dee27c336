import path from 'node:path';
import { Command } from 'commander';
import type { CommonFlags } from '../index.js';
import {
  cacheOption,
  insecureHttpOption,
  jsonOption,
  langOption,
  pipelineOption,
  siteOption,
} from './shared-options.js';
import type { CliIo } from './run-cli.js';

interface DiffFlags extends CommonFlags {
  snapshot?: string;
  since?: string;
  live?: boolean;
  json?: boolean;
}

const HELP_AFTER = `
Compares the cache (the newer side) with:
  --snapshot FILE  a snapshot written by "backup --to" (the older side)
  --since TIME     the cache's kept history at TIME: ISO 8601 with Z or an offset
                   (2026-11-24T06:00:00Z) or a duration back from now (90m, 24h, 7d)
  --live           the site now (read-only: ids and modified dates, then only what differs)
Lists items created, updated (a line diff of title, excerpt and content, and the other
changed fields), trashed, deleted (for good) and unpublished; media added or removed.
Needs a cache pulled with credentials and --backup.
Exit codes: 0 no difference, 3 differences found, 2 bad input (a cache not pulled with
--backup, a snapshot of another site, a time before the kept history starts).`;

export function diffCommand(io: CliIo): Command {
  const command = new Command('diff').description(
    'show what changed between the cache and a snapshot, a time in its kept history, or the live site',
  );
  cacheOption(pipelineOption(command), 'SQLite cache (pulled with credentials and --backup)');
  langOption(command, 'languages to compare, e.g. pl,es (default: every language cached)');
  siteOption(command, 'base URL of the site (for --live)');
  command
    .option('--snapshot <file>', 'compare with this snapshot (a "backup --to" file)')
    .option(
      '--since <time>',
      'compare with the kept history at TIME (ISO 8601 with a zone, or 24h, 7d)',
    )
    .option('--live', 'compare with the live site (needs credentials; sends only reads)');
  return jsonOption(insecureHttpOption(command), 'report on stdout')
    .addHelpText('after', HELP_AFTER)
    .action(async (flags: DiffFlags) => {
      const [{ resolveSettings, diff }, { formatDiff }] = await Promise.all([
        import('../index.js'),
        import('../diff/index.js'),
      ]);
      const report = await diff({
        settings: resolveSettings(flags, io.env, io.cwd),
        snapshot: flags.snapshot === undefined ? undefined : path.resolve(io.cwd, flags.snapshot),
        since: flags.since,
        live: flags.live,
      });
      if (flags.json) io.stdout.write(`${JSON.stringify(report)}\n`);
      else io.stdout.write(`${formatDiff(report).join('\n')}\n`);
      io.exitCode.value = report.total === 0 ? 0 : 3;
    });
}
