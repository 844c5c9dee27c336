import path from 'node:path';
import { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { MigrateResult } from '../index.js';
import type { ConflictPolicy } from '../migrate/index.js';
import type { CliIo } from './run-cli.js';
import { insecureHttpOption, jsonOption, pipelineOption } from './shared-options.js';

interface MigrateFlags {
  pipeline?: string;
  fromCache: string;
  fromLang: string;
  to: string;
  toLang: string;
  dryRun?: boolean;
  json?: boolean;
  authorMap?: string;
  onConflict: string;
  keepTerms?: boolean;
  allowInsecureHttp?: boolean;
}

export function migrateCommand(io: CliIo): Command {
  const command = new Command('migrate')
    .description(
      're-create one language of a cache on another site: media, pages parents-first, posts; ids and URLs remapped',
    )
    .requiredOption('--from-cache <file>', 'the source SQLite cache (id_map is recorded in it)')
    .requiredOption('--from-lang <lang>', 'source language segment')
    .requiredOption('--to <url>', 'base URL of the target site')
    .requiredOption('--to-lang <lang>', 'target language segment');
  insecureHttpOption(command, 'target');
  pipelineOption(command, 'pipeline file (HTTP settings, credential variable names)')
    .option('--author-map <pairs>', 'source:target author ids, e.g. 1:3,2:3')
    .option(
      '--on-conflict <policy>',
      "what to do with the target's own item that has the slug of an item to create: stop (list every conflict, create nothing, exit 3), skip (leave the source item out), beside (create it; the target gives it another slug and links follow), adopt (take the existing item as the copy, unchanged)",
      'stop',
    )
    .option(
      '--keep-terms',
      "send category and tag ids as they are (only for a target that shares the source's terms); without it they are left out and the run says which",
    )
    .option(
      '--dry-run',
      'read the target (credentials checked) and print exactly what the run would do, conflicts included; create nothing',
    );
  return jsonOption(command).action(async (flags: MigrateFlags) => {
    const [{ resolveSettings, migrate }, stage] = await Promise.all([
      import('../index.js'),
      import('../migrate/index.js'),
    ]);
    const { formatConflict, STOPPED_HINT } = stage;
    // --to goes through the same URL rules as --site.
    const settings = resolveSettings(
      {
        ...(flags.pipeline ? { pipeline: flags.pipeline } : {}),
        site: flags.to,
        lang: flags.toLang,
        ...(flags.allowInsecureHttp ? { allowInsecureHttp: true } : {}),
      },
      io.env,
      io.cwd,
    );
    const onConflict = conflictPolicy(flags.onConflict, stage.CONFLICT_POLICIES);
    const report = await migrate({
      fromCache: path.resolve(io.cwd, flags.fromCache),
      fromLang: flags.fromLang,
      settings,
      toLang: flags.toLang,
      onConflict,
      ...(flags.keepTerms ? { keepTerms: true } : {}),
      ...(flags.dryRun ? { dryRun: true } : {}),
      ...(flags.authorMap ? { authors: parseAuthorMap(flags.authorMap) } : {}),
      ...(flags.json ? {} : { onLine: (line: string) => io.stderr.write(`${line}\n`) }),
    });
    if (report.failed.length > 0 || report.stopped) io.exitCode.value = 3;
    if (flags.json) {
      io.stdout.write(`${JSON.stringify(jsonOf(report, flags.dryRun ?? false))}\n`);
      return;
    }
    if (flags.dryRun) {
      io.stdout.write(report.planText);
      return;
    }
    if (report.stopped) {
      for (const conflict of report.conflicts) io.stderr.write(`${formatConflict(conflict)}\n`);
      io.stderr.write(`migrate: ${report.conflicts.length} conflict(s); ${STOPPED_HINT}\n`);
      return;
    }
    printReport(io, report, formatConflict);
  });
}

function jsonOf(report: MigrateResult, dryRun: boolean): Record<string, unknown> {
  return {
    dryRun,
    created: report.created,
    skipped: report.skipped,
    recovered: report.recovered,
    relinked: report.relinked,
    adopted: report.adopted,
    conflicts: report.conflicts,
    stopped: report.stopped,
    failed: report.failed,
    warnings: report.warnings,
    warningCount: report.warnings.length,
    requests: report.requests,
    batches: report.batches,
    seo: report.seo ?? null,
    ...(dryRun ? { plan: report.planText } : {}),
  };
}

function printReport(
  io: CliIo,
  report: MigrateResult,
  formatConflict: (conflict: MigrateResult['conflicts'][number]) => string,
): void {
  const out = (line: string) => io.stdout.write(`${line}\n`);
  for (const warning of report.warnings) io.stderr.write(`warning: ${warning}\n`);
  for (const conflict of report.conflicts) io.stderr.write(`${formatConflict(conflict)}\n`);
  for (const failure of report.failed)
    io.stderr.write(`failed: ${failure.type} ${failure.sourceId}: ${failure.message}\n`);
  out(
    `migrate: created ${report.created.media} media, ${report.created.pages} pages, ${report.created.posts} posts; ` +
      `${report.skipped} already migrated, ${report.recovered} recovered, ${report.adopted} adopted, ${report.conflicts.length} conflicts, ${report.relinked} relinked, ${report.failed.length} failed ` +
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

function conflictPolicy(value: string, policies: readonly ConflictPolicy[]): ConflictPolicy {
  const policy = policies.find((candidate) => candidate === value);
  if (policy === undefined)
    throw new UsageError(`--on-conflict: expected one of ${policies.join(', ')}, got "${value}"`);
  return policy;
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
