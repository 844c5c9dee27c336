import { Command } from 'commander';
import { InterruptedError } from '../errors.js';
import type { CommonFlags, PullCounters } from '../index.js';
import { jsonOption, pullOptions, siteOptions } from './shared-options.js';
import type { CliIo } from './run-cli.js';

interface PullFlags extends CommonFlags {
  json?: boolean;
}

export function pullCommand(io: CliIo): Command {
  const command = new Command('pull').description(
    'mirror the site into the cache: changed items since the last pull, deletions, media and embeds (with --backup also revisions and autosaves)',
  );
  return jsonOption(pullOptions(siteOptions(command)), 'summary on stdout').action(
    async (flags: PullFlags) => {
      const [{ resolveSettings, pull }, { createProgressReporter }] = await Promise.all([
        import('../index.js'),
        import('./progress.js'),
      ]);
      const settings = resolveSettings(flags, io.env, io.cwd);
      const progress = await createProgressReporter(io.stderr);
      const abort = new AbortController();
      // Stops between requests; every committed page stays and the next pull resumes there.
      const stop = (): void =>
        abort.abort(
          new InterruptedError(
            'pull interrupted; what was fetched is kept and the next pull resumes from there',
          ),
        );
      process.once('SIGINT', stop);
      let summary;
      try {
        summary = await pull({ settings, onProgress: progress.onProgress, signal: abort.signal });
      } finally {
        process.off('SIGINT', stop);
        progress.stop();
      }
      io.exitCode.value = summary.status === 'partial' ? 3 : 0;
      // Items edited in checkout files that the pull brought a newer version of: the site's
      // version goes beside the file, for "push --resolve" (see push --help).
      const { writeRemoteCopiesIn } = await import('../push/index.js');
      for (const copy of writeRemoteCopiesIn(
        settings.cache,
        settings.languages.length > 0 ? settings.languages : undefined,
      ))
        io.stderr.write(
          `pull: the site changed an item you edited; its version is in ${copy} (merge, then push --resolve)\n`,
        );
      if (flags.json) {
        io.stdout.write(
          `${JSON.stringify({ languages: summary.languages, total: summary.total })}\n`,
        );
        return;
      }
      for (const [lang, counters] of Object.entries(summary.languages)) {
        io.stdout.write(`pull ${lang}: ${describe(counters)}\n`);
      }
      io.stdout.write(`pull: ${describe(summary.total)}\n`);
      if (summary.status === 'partial') {
        io.stderr.write(
          `pull: ${summary.total.errors} file(s), revision list(s) or embed(s) could not be fetched; they stay queued and the next pull retries them\n`,
        );
      }
    },
  );
}

function describe(c: PullCounters): string {
  const parts = [
    `${c.created} created`,
    `${c.updated} updated`,
    `${c.deleted} deleted`,
    `${c.unchanged} unchanged`,
  ];
  if (c.revisions > 0) parts.push(`${c.revisions} revisions`);
  if (c.media_files > 0) parts.push(`${c.media_files} media files (${formatBytes(c.media_bytes)})`);
  if (c.embeds > 0) parts.push(`${c.embeds} embeds`);
  if (c.skipped > 0) parts.push(`${c.skipped} bad records skipped`);
  if (c.media_refused > 0) parts.push(`${c.media_refused} media URLs refused (origin not allowed)`);
  if (c.errors > 0) parts.push(`${c.errors} errors`);
  return `${parts.join(', ')}; ${c.requests} requests in ${c.seconds} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
