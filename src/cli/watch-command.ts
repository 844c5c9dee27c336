import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { isCmsMirrorError } from '../errors.js';
import type { CommonFlags } from '../index.js';
import { parseDuration } from '../duration.js';
import type { CliIo } from './run-cli.js';
import { dirOption, outOption, siteOptions, templatesOption } from './shared-options.js';

interface WatchFlags extends CommonFlags {
  dir?: string;
  push?: boolean;
  pullEvery?: number;
  build?: boolean;
}

export function watchCommand(io: CliIo): Command {
  const command = new Command('watch').description(
    'watch checked-out files and the theme: record saved edits, or with --push send them and rebuild the affected pages; a theme change rebuilds the site; Ctrl-C stops after the running step',
  );
  dirOption(siteOptions(command));
  outOption(command, 'output directory the rebuild writes; each language in <dir>/<lang>/');
  return templatesOption(command, 'theme dir to build with and watch (default: the built-in one)')
    .option('--push', 'push each batch of saved edits to the site (needs credentials)')
    .option('--no-build', 'only record/push: never rebuild the output')
    .option(
      '--pull-every <duration>',
      'pull periodically (500ms, 10s, 5m, 1h); a pull that changed items rebuilds',
      durationArgument,
    )
    .action(async (flags: WatchFlags) => {
      const { resolveSettings, watch } = await import('../index.js');
      const settings = resolveSettings(flags, io.env, io.cwd);
      const controller = new AbortController();
      const stop = () => {
        io.stderr.write('watch: stopping after the running step (Ctrl-C again to kill)\n');
        controller.abort();
      };
      // `once`: a second Ctrl-C gets Node's default (exit at once) for a stuck step.
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      try {
        await watch({
          settings,
          ...(flags.dir !== undefined ? { dir: path.resolve(io.cwd, flags.dir) } : {}),
          ...(flags.push ? { push: true } : {}),
          ...(flags.build === false ? { build: false } : {}),
          ...(flags.pullEvery !== undefined ? { pullEveryMs: flags.pullEvery } : {}),
          onLine: (line) => io.stdout.write(`${line}\n`),
          signal: controller.signal,
        });
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
    });
}

/** Commander's parser for `--pull-every`: a bad value is a usage error (exit 2). */
function durationArgument(value: string): number {
  try {
    return parseDuration(value);
  } catch (error) {
    if (isCmsMirrorError(error)) throw new InvalidArgumentError(error.message);
    throw error;
  }
}
