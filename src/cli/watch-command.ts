import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { resolveSettings, type CommonFlags } from '../config/settings.js';
import { requirePushCredentials } from '../push/index.js';
import { watchCheckouts } from '../watch/index.js';
import type { CliIo } from './run-cli.js';

interface WatchFlags extends CommonFlags {
  dir?: string;
  push?: boolean;
  pullEvery?: number;
}

export function watchCommand(io: CliIo): Command {
  return new Command('watch')
    .description(
      'watch checked-out files (and templates): record saved edits, push them with --push',
    )
    .option('--pipeline <file>', 'pipeline file')
    .option('--site <url>', 'base URL of the site')
    .option('--lang <list>', 'languages, e.g. pl,es')
    .option('--cache <file>', 'SQLite cache')
    .option('--dir <dir>', 'checkout dir (default: the pipeline\'s push.dir, "content")')
    .option('--templates <dir>', 'theme dir to watch as well')
    .option('--push', 'push each batch of saved edits to the site')
    .option('--pull-every <duration>', 'pull periodically, e.g. 30s, 5m, 1h', duration)
    .action(async (flags: WatchFlags) => {
      const settings = resolveSettings(flags, io.env, io.cwd);
      if (flags.push) requirePushCredentials(settings);
      const dir = flags.dir !== undefined ? path.resolve(io.cwd, flags.dir) : settings.push.dir;
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      if (flags.pullEvery !== undefined) {
        // The sync library is wired here once it offers a pull call; until then, say so.
        io.stderr.write(
          'note: --pull-every is not wired yet (no sync library API); run `cms-mirror pull` meanwhile\n',
        );
      }
      try {
        await watchCheckouts({
          settings,
          dir,
          ...(settings.templates !== undefined ? { templatesDir: settings.templates } : {}),
          ...(flags.push ? { push: true } : {}),
          onLine: (line) => io.stdout.write(`${line}\n`),
          signal: controller.signal,
        });
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
    });
}

/** `30s`, `5m`, `1h`, `500ms` → milliseconds (at least one second). */
export function duration(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value.trim());
  if (!match)
    throw new InvalidArgumentError(`expected a duration such as 30s, 5m or 1h, got "${value}"`);
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] as 'ms' | 's' | 'm' | 'h'];
  const ms = Number(match[1]) * factor;
  if (ms < 1000)
    throw new InvalidArgumentError(
      `a pull interval under one second would hammer the site, got "${value}"`,
    );
  return ms;
}
