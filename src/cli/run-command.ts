import { Command } from 'commander';
import type { CommonFlags } from '../config/settings.js';
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
      const [{ resolveSettings }, { pull }, { openStore }, { createProgressReporter }] =
        await Promise.all([
          import('../config/settings.js'),
          import('../sync/index.js'),
          import('../store/index.js'),
          import('./progress.js'),
        ]);
      // The build's modules load while the pull waits for the site.
      const buildModule = import('../site/run-build.js');
      buildModule.catch(() => undefined);
      const settings = resolveSettings(flags, io.env, io.cwd);
      const progress = createProgressReporter(io.stderr);
      let pulled;
      try {
        pulled = await pull(settings, { onProgress: progress.onProgress });
      } finally {
        progress.stop();
      }
      const changes = new Map(
        Object.entries(pulled.languages).map(([lang, c]) => [
          lang,
          c.created + c.updated + c.deleted,
        ]),
      );
      const { runBuild } = await buildModule;
      const store = openStore(settings.cache);
      try {
        const built = await runBuild(store, settings, {
          pulledChanges: changes,
          ...(flags.json ? {} : { onLine: (line: string) => io.stderr.write(`build ${line}\n`) }),
        });
        io.exitCode.value = pulled.status === 'partial' ? 3 : 0;
        if (flags.json) {
          io.stdout.write(
            `${JSON.stringify({ pull: { languages: pulled.languages, total: pulled.total }, build: buildJson(built) })}\n`,
          );
          return;
        }
        printBuild(io, built, false);
      } finally {
        store.close();
      }
    },
  );
}
