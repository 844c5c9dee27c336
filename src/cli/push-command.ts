import path from 'node:path';
import { Command, Option } from 'commander';
import { UsageError } from '../errors.js';
import type { CommonFlags, PushResult } from '../index.js';
import type { CliIo } from './run-cli.js';
import { dirOption, jsonOption, siteOptions } from './shared-options.js';

interface PushFlags extends CommonFlags {
  dir?: string;
  dryRun?: boolean;
  force?: boolean;
  json?: boolean;
  validation?: 'normal' | 'require-all-validate';
  delete?: string;
  resolve?: string[];
}

export function pushCommand(io: CliIo): Command {
  const command = new Command('push').description(
    'send changed checkout files (and queued edits) to the site through batch requests',
  );
  dirOption(siteOptions(command))
    .option('--dry-run', 'validate and check for conflicts, send nothing')
    .option(
      '--force',
      'skip the conflict check: write edits to items changed on the site since checkout (see below)',
    )
    .addOption(
      new Option(
        '--validation <mode>',
        'batch validation: require-all-validate runs nothing if an edit fails the argument checks (save-time errors still let the others land); normal runs every valid edit',
      ).choices(['require-all-validate', 'normal']),
    )
    .option('--delete <ids>', 'move these post/page ids to the trash, e.g. 12,13')
    .option(
      '--resolve <file>',
      "mark a conflicting checkout file resolved (after merging FILE.remote.html into it): send it against the site's current version; repeatable",
      (value: string, previous: string[] = []) => [...previous, value],
    );
  return jsonOption(command)
    .addHelpText(
      'after',
      `
Conflicts and --force:
  Before writing, push compares each edited item's modified_gmt on the site with the one
  recorded at checkout. An item changed on the site since then is a conflict: nothing is
  written for it, the local file keeps your edit, the edit stays queued, and push exits 3.
  --force skips that check for every queued edit. Only the fields you changed are sent, so
  on a forced update the site keeps its own changes to the other fields and loses them in
  yours; a forced "status: trash" trashes the item whatever changed. Afterwards your file
  shows the item as the site then has it. Local validation still runs (exit 2, nothing sent)
  and the site may still refuse an edit (kept pending with its message, exit 3).
  Use "push --dry-run" first to list the conflicts; "checkout" of a fresh pull shows the
  site's version (it never overwrites a file you edited).

Resolving a conflict without --force:
  1. cms-mirror pull: the cache gets the site's version; push (or pull, or checkout) then
     writes it beside your file as <file>.remote.html (your file is never touched).
  2. Merge what you want to keep from <file>.remote.html into your file. push still
     refuses the file while it is unresolved.
  3. cms-mirror push --resolve <file>: your file is sent against the site's current
     version (the .remote.html copy is removed). If the site moved again meanwhile, it
     conflicts again and a fresh copy is written.`,
    )
    .action(async (flags: PushFlags) => {
      const [{ resolveSettings, push }, { countersOf }] = await Promise.all([
        import('../index.js'),
        import('../push/index.js'),
      ]);
      const report = await push({
        settings: resolveSettings(flags, io.env, io.cwd),
        ...(flags.dir !== undefined ? { dir: path.resolve(io.cwd, flags.dir) } : {}),
        ...(flags.dryRun ? { dryRun: true } : {}),
        ...(flags.force ? { force: true } : {}),
        ...(flags.validation !== undefined ? { validation: flags.validation } : {}),
        ...(flags.delete !== undefined ? { deleteIds: parseIds(flags.delete) } : {}),
        ...(flags.resolve !== undefined
          ? { resolve: flags.resolve.map((file) => path.resolve(io.cwd, file)) }
          : {}),
      });
      io.exitCode.value = exitCodeOf(report);
      if (flags.json) {
        io.stdout.write(`${JSON.stringify(countersOf(report))}\n`);
      } else {
        printReport(io, report, flags.dryRun ?? false);
      }
    });
}

/** 2: nothing sent because of invalid input; 3: conflicts or failures left edits pending. */
export function exitCodeOf(report: PushResult): number {
  if (report.fileProblems.length > 0 || report.invalid.length > 0) return 2;
  if (report.conflicts.length > 0 || report.failed.length > 0) return 3;
  return 0;
}

function printReport(io: CliIo, report: PushResult, dryRun: boolean): void {
  const err = (line: string) => io.stderr.write(`${line}\n`);
  for (const copy of report.remoteCopies) err(`the site's version of an edited file: ${copy}`);
  for (const problem of report.fileProblems) err(problem.message);
  for (const problem of report.invalid) err(`${problem.file}: ${problem.message}`);
  if (report.fileProblems.length + report.invalid.length > 0) {
    err(
      `push: nothing sent; fix the ${report.fileProblems.length + report.invalid.length} problem(s) above and run push again`,
    );
    return;
  }
  for (const conflict of report.conflicts) err(`conflict: ${conflict.message}`);
  for (const failure of report.failed)
    err(`failed: ${failure.label}: ${failure.code}: ${failure.message} (kept pending)`);
  if (dryRun) {
    for (const line of report.plan) io.stdout.write(`would send ${line}\n`);
    io.stdout.write(
      `push --dry-run: ${report.plan.length} request(s) would be sent, ${report.conflicts.length} conflict(s)\n`,
    );
    return;
  }
  io.stdout.write(
    `push: ${report.sent} sent in ${report.batches} batch call(s): ${report.created} created, ${report.updated} updated, ` +
      `${report.trashed} trashed; ${report.conflicts.length} conflict(s), ${report.failed.length} failed, ${report.pending} pending\n`,
  );
}

function parseIds(value: string): number[] {
  return value.split(',').map((part) => {
    const text = part.trim();
    if (!/^\d+$/.test(text) || Number(text) < 1)
      throw new UsageError(`--delete: expected ids such as 12,13, got "${text}"`);
    return Number(text);
  });
}
