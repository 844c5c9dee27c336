import path from 'node:path';
import { Command } from 'commander';
import type { MigrateReport } from '../push/index.js';
import { UsageError } from '../errors.js';
import type { CliIo } from './run-cli.js';

interface MigrateFlags {
  pipeline?: string;
  fromCache: string;
  fromLang: string;
  to: string;
  toLang: string;
  dryRun?: boolean;
  json?: boolean;
  authorMap?: string;
}

export function migrateCommand(io: CliIo): Command {
  return new Command('migrate')
    .description(
      're-create one language of a cache on another site: media, pages parents-first, posts; ids and URLs remapped',
    )
    .requiredOption('--from-cache <file>', 'the source SQLite cache (id_map is recorded in it)')
    .requiredOption('--from-lang <lang>', 'source language segment')
    .requiredOption('--to <url>', 'base URL of the target site')
    .requiredOption('--to-lang <lang>', 'target language segment')
    .option('--pipeline <file>', 'pipeline file (HTTP settings, credential variable names)')
    .option('--author-map <pairs>', 'source:target author ids, e.g. 1:3,2:3')
    .option('--dry-run', 'print the plan, create nothing')
    .option('--json', 'print one machine-readable summary')
    .action(async (flags: MigrateFlags) => {
      const [{ resolveSettings }, { migrate }] = await Promise.all([
        import('../config/settings.js'),
        import('../push/index.js'),
      ]);
      // --to goes through the same URL rules as --site.
      const settings = resolveSettings(
        {
          ...(flags.pipeline ? { pipeline: flags.pipeline } : {}),
          site: flags.to,
          lang: flags.toLang,
        },
        io.env,
        io.cwd,
      );
      const report = await migrate({
        fromCache: path.resolve(io.cwd, flags.fromCache),
        fromLang: flags.fromLang,
        to: settings.site!,
        toLang: flags.toLang,
        credentials: settings.credentials,
        http: settings.http,
        ...(flags.dryRun ? { dryRun: true } : {}),
        ...(flags.authorMap ? { authors: parseAuthorMap(flags.authorMap) } : {}),
        ...(flags.json ? {} : { onLine: (line: string) => io.stderr.write(`${line}\n`) }),
      });
      if (report.failed.length > 0) io.exitCode.value = 3;
      if (flags.json) {
        io.stdout.write(`${JSON.stringify(jsonOf(report, flags.dryRun ?? false))}\n`);
        return;
      }
      if (flags.dryRun) {
        io.stdout.write(report.planText);
        return;
      }
      printReport(io, report);
    });
}

function jsonOf(report: MigrateReport, dryRun: boolean): Record<string, unknown> {
  return {
    dryRun,
    created: report.created,
    skipped: report.skipped,
    recovered: report.recovered,
    relinked: report.relinked,
    failed: report.failed,
    warnings: report.warnings.length,
    requests: report.requests,
    batches: report.batches,
    seo: report.seo ?? null,
    ...(dryRun ? { plan: report.planText } : {}),
  };
}

function printReport(io: CliIo, report: MigrateReport): void {
  const out = (line: string) => io.stdout.write(`${line}\n`);
  for (const warning of report.warnings) io.stderr.write(`warning: ${warning}\n`);
  for (const failure of report.failed)
    io.stderr.write(`failed: ${failure.type} ${failure.sourceId}: ${failure.message}\n`);
  out(
    `migrate: created ${report.created.media} media, ${report.created.pages} pages, ${report.created.posts} posts; ` +
      `${report.skipped} already migrated, ${report.recovered} recovered by slug, ${report.relinked} relinked, ${report.failed.length} failed ` +
      `(${report.requests} requests, ${report.batches} batch calls)`,
  );
  if (report.seo) {
    out(
      `seo: site representation ${report.seo.siteRepresentation}; social profiles ${report.seo.socialProfiles}`,
    );
    for (const step of report.seo.indexing)
      out(`seo: ${step.route}: ${step.result}, ${step.calls} call(s), ${step.objects} object(s)`);
  }
}

function parseAuthorMap(value: string): Map<number, number> {
  const map = new Map<number, number>();
  for (const pair of value.split(',')) {
    const match = /^\s*(\d+):(\d+)\s*$/.exec(pair);
    if (!match)
      throw new UsageError(
        `--author-map: expected source:target pairs such as 1:3,2:3, got "${pair}"`,
      );
    map.set(Number(match[1]), Number(match[2]));
  }
  return map;
}
