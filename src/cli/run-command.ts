import { Command, Option } from 'commander';
import type { CommonFlags } from '../config/settings.js';
import { buildJson, printBuild } from './build-command.js';
import { nonNegativeInt } from './option-parsers.js';
import type { CliIo } from './run-cli.js';

interface RunFlags extends CommonFlags {
  json?: boolean;
}

/** pull + build: the scheduled run. A pull that changed nothing skips the build. */
export function runCommand(io: CliIo): Command {
  return new Command('run')
    .description('pull, then build what changed (a scheduled static build in one command)')
    .option('--pipeline <file>', 'pipeline file')
    .option('--site <url>', 'base URL of the site')
    .option('--lang <list>', 'languages, e.g. pl,es')
    .option('--cache <file>', 'SQLite cache')
    .option(
      '--allow-insecure-http',
      'send credentials to an http: site that is not this machine (clear text)',
    )
    .option('--out <dir>', 'output directory; each language goes to <dir>/<lang>/')
    .option('--templates <dir>', 'an Eleventy theme directory instead of the built-in one')
    .option('--backup', 'also mirror revisions and autosaves (needs credentials)')
    .option(
      '--full-sweep-every <n>',
      'list every collection in full every Nth pull, to find deletions counts cannot show (0 = never; default 20)',
      nonNegativeInt,
    )
    .addOption(
      new Option(
        '--translations <mode>',
        "how items pair with their translations: same-id (one content set under every language) or none (separate sites; the switcher goes to the other language's home). Default: the pipeline's, else none",
      ).choices(['same-id', 'none']),
    )
    .option('--json', 'print one machine-readable summary on stdout')
    .action(async (flags: RunFlags) => {
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
    });
}
