import { Command } from 'commander';
import type { CommonFlags } from '../index.js';
import type { CliIo } from './run-cli.js';
import { jsonOption, siteOptions } from './shared-options.js';

interface VerifyFlags extends CommonFlags {
  json?: boolean;
}

export function verifyCommand(io: CliIo): Command {
  const command = new Command('verify').description(
    "compare the cache with the site (counts and each item's modified_gmt); exit 3 on a difference",
  );
  return jsonOption(siteOptions(command), 'report').action(async (flags: VerifyFlags) => {
    const { resolveSettings, verify } = await import('../index.js');
    const report = await verify({ settings: resolveSettings(flags, io.env, io.cwd) });
    io.exitCode.value = report.ok ? 0 : 3;
    if (flags.json) {
      io.stdout.write(`${JSON.stringify(report)}\n`);
      return;
    }
    for (const c of report.collections) {
      const differences = c.missing + c.extra + c.stale;
      io.stdout.write(
        `verify ${c.lang} ${c.collection}: site ${c.remote}, cache ${c.local}` +
          (differences === 0
            ? ': equal'
            : `: ${c.missing} missing, ${c.extra} extra, ${c.stale} stale`) +
          (c.skipped > 0 ? ` (${c.skipped} skipped: records the pull cannot store)\n` : '\n'),
      );
    }
    for (const d of report.differences) {
      io.stdout.write(
        `  ${d.kind} ${d.lang}/${d.collection}/${d.id}` +
          `${d.remote !== undefined ? ` site ${d.remote}` : ''}${d.local !== undefined ? ` cache ${d.local}` : ''}\n`,
      );
    }
    io.stdout.write(
      report.ok
        ? `verify: the cache equals the site (context=${report.mode}, ${report.requests} requests)\n`
        : 'verify: the cache differs from the site; run cms-mirror pull\n',
    );
  });
}
