import { Command } from 'commander';
import type { CommonFlags } from '../index.js';
import { buildJson, printBuild } from './build-command.js';
import {
  jsonOption,
  outOption,
  pullOptions,
  siteOptions,
  templatesOption,
  translationsOption,
} from './shared-options.js';
import type { CliIo } from './run-cli.js';

interface RunFlags extends CommonFlags {
  json?: boolean;
}

/** pull + build: the scheduled run. A pull that changed nothing skips the build. */
export function runCommand(io: CliIo): Command {
  const command = new Command('run').description(
    'pull, then build what changed (a scheduled static build in one command)',
  );
  templatesOption(outOption(siteOptions(command)));
  return jsonOption(translationsOption(pullOptions(command)), 'summary on stdout').action(
    async (flags: RunFlags) => {
      const [{ resolveSettings, run }, { createProgressReporter }] = await Promise.all([
        import('../index.js'),
        import('./progress.js'),
      ]);
      const settings = resolveSettings(flags, io.env, io.cwd);
      const progress = await createProgressReporter(io.stderr);
      let result;
      try {
        result = await run({
          settings,
          onProgress: progress.onProgress,
          onPulled: () => progress.stop(),
          ...(flags.json ? {} : { onLine: (line: string) => io.stderr.write(`build ${line}\n`) }),
        });
      } finally {
        progress.stop();
      }
      io.exitCode.value = result.status === 'partial' ? 3 : 0;
      if (flags.json) {
        const { pull, build } = result;
        io.stdout.write(
          `${JSON.stringify({ pull: { languages: pull.languages, total: pull.total }, build: buildJson(build) })}\n`,
        );
        return;
      }
      printBuild(io, result.build, false);
    },
  );
}
