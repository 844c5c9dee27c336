import { Command } from 'commander';
import type { CommonFlags } from '../index.js';
import { formatBytes } from './pull-command.js';
import type { CliIo } from './run-cli.js';
import { cacheOption, jsonOption, pipelineOption } from './shared-options.js';

interface StatusFlags extends CommonFlags {
  json?: boolean;
}

export function statusCommand(io: CliIo): Command {
  const command = new Command('status').description(
    'show what the cache holds per language and collection, the watermarks and the last pulls',
  );
  return jsonOption(cacheOption(pipelineOption(command))).action(async (flags: StatusFlags) => {
    const { resolveSettings, status } = await import('../index.js');
    const report = await status({ settings: resolveSettings(flags, io.env, io.cwd) });
    if (flags.json) {
      io.stdout.write(`${JSON.stringify(report)}\n`);
      return;
    }
    const out = (line: string): void => {
      io.stdout.write(`${line}\n`);
    };
    out(`cache: ${report.file}`);
    if (report.collections.length === 0) out('  empty: run cms-mirror pull');
    for (const c of report.collections) {
      const statuses = Object.entries(c.statuses)
        .map(([name, n]) => `${name} ${n}`)
        .join(', ');
      const pending = c.pending.revisions + c.pending.assets + c.pending.children;
      out(
        `  ${c.lang} ${c.collection.padEnd(5)}  ${c.live} live${statuses ? ` (${statuses})` : ''}, ${c.deleted} deleted; ` +
          `watermark ${c.watermark ?? 'none'}${c.context ? `, context=${c.context}` : ''}` +
          `${c.interrupted ? ', crawl interrupted (the next pull resumes it)' : ''}` +
          `${pending > 0 ? `, ${pending} task(s) pending` : ''}`,
      );
    }
    for (const [lang, r] of Object.entries(report.revisions)) {
      if (r.revisions + r.autosaves > 0)
        out(`  ${lang} revisions ${r.revisions}, autosaves ${r.autosaves}`);
    }
    out(
      `  media: ${report.media.files} URL(s), ${report.media.blobs} file(s), ${formatBytes(report.media.bytes)}`,
    );
    out(report.runs.length > 0 ? 'last pulls:' : 'no pull recorded yet');
    for (const run of report.runs) {
      const total = (run.counters?.['total'] ?? {}) as Record<string, unknown>;
      const counts =
        run.counters === null
          ? ''
          : `: ${String(total['created'] ?? 0)} created, ${String(total['updated'] ?? 0)} updated, ${String(total['deleted'] ?? 0)} deleted, ${String(total['requests'] ?? 0)} requests`;
      out(`  #${run.id} ${run.startedAt} ${run.status}${counts}`);
    }
  });
}
