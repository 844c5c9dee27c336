import path from 'node:path';
import { Command } from 'commander';
import type { CommonFlags } from '../config/settings.js';
import type { CheckoutType } from '../push/index.js';
import { UsageError } from '../errors.js';
import type { CliIo } from './run-cli.js';
import {
  cacheOption,
  dirOption,
  jsonOption,
  langOption,
  pipelineOption,
} from './shared-options.js';

interface CheckoutFlags extends CommonFlags {
  dir?: string;
  type?: string;
  json?: boolean;
}

export function checkoutCommand(io: CliIo): Command {
  const command = new Command('checkout').description(
    'write one editable file per cached post and page (front matter + HTML) for push',
  );
  cacheOption(pipelineOption(command), 'SQLite cache to read');
  langOption(command, "languages, e.g. pl,es (default: the pipeline's, else every cached one)");
  dirOption(command, 'where files go (default: the pipeline\'s push.dir, "content")');
  command.option('--type <list>', 'collections: posts,pages', 'posts,pages');
  return jsonOption(command).action(async (flags: CheckoutFlags) => {
    const [{ resolveSettings }, { checkout, writeRemoteCopies, CHECKOUT_TYPES }, { openStore }] =
      await Promise.all([
        import('../config/settings.js'),
        import('../push/index.js'),
        import('../store/index.js'),
      ]);
    const settings = resolveSettings(flags, io.env, io.cwd);
    const types = parseTypes(flags.type ?? 'posts,pages', CHECKOUT_TYPES);
    const dir = flags.dir !== undefined ? path.resolve(io.cwd, flags.dir) : settings.push.dir;
    const store = openStore(settings.cache);
    try {
      const languages = settings.languages.length > 0 ? settings.languages : store.items.langs();
      const runId = store.runs.start('checkout');
      const summary = checkout({ store, dir, languages, types });
      const remoteCopies = writeRemoteCopies(store, languages);
      store.runs.finish(runId, 'ok', {
        written: summary.written,
        unchanged: summary.unchanged,
        kept: summary.keptLocal.length,
      });
      if (flags.json) {
        io.stdout.write(
          `${JSON.stringify({ dir, written: summary.written, unchanged: summary.unchanged, keptLocal: summary.keptLocal, remoteCopies, items: summary.items })}\n`,
        );
        return;
      }
      for (const file of summary.keptLocal)
        io.stdout.write(
          `kept ${file}: edited locally since checkout, not overwritten (push it, or delete it to check out again)\n`,
        );
      for (const copy of remoteCopies)
        io.stdout.write(
          `remote ${copy}: the site's version of an item you edited (merge it, then push --resolve)\n`,
        );
      io.stdout.write(
        `checkout: ${summary.written} written, ${summary.unchanged} unchanged, ${summary.keptLocal.length} kept (local edits) in ${dir}\n`,
      );
    } finally {
      store.close();
    }
  });
}

function parseTypes(value: string, known: readonly CheckoutType[]): CheckoutType[] {
  const types = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const type of types) {
    if (!(known as readonly string[]).includes(type))
      throw new UsageError(`--type: expected posts and/or pages, got "${type}"`);
  }
  return types as CheckoutType[];
}
