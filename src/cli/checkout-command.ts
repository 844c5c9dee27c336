import path from 'node:path';
import { Command } from 'commander';
import { CHECKOUT_TYPES } from '../collections.js';
import { UsageError } from '../errors.js';
import type { CommonFlags } from '../index.js';
import type { CheckoutType } from '../push/index.js';
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
  const allTypes = CHECKOUT_TYPES.join(',');
  command.option('--type <list>', `collections: ${allTypes}`, allTypes);
  return jsonOption(command).action(async (flags: CheckoutFlags) => {
    const { resolveSettings, checkout } = await import('../index.js');
    const settings = resolveSettings(flags, io.env, io.cwd);
    const types = parseTypes(flags.type ?? allTypes, CHECKOUT_TYPES);
    const result = await checkout({
      settings,
      ...(flags.dir !== undefined ? { dir: path.resolve(io.cwd, flags.dir) } : {}),
      types,
    });
    const { dir, remoteCopies } = result;
    if (flags.json) {
      io.stdout.write(
        `${JSON.stringify({ dir, written: result.written, unchanged: result.unchanged, keptLocal: result.keptLocal, remoteCopies, items: result.items })}\n`,
      );
      return;
    }
    for (const file of result.keptLocal)
      io.stdout.write(
        `kept ${file}: edited locally since checkout, not overwritten (push it, or delete it to check out again)\n`,
      );
    for (const copy of remoteCopies)
      io.stdout.write(
        `remote ${copy}: the site's version of an item you edited (merge it, then push --resolve)\n`,
      );
    io.stdout.write(
      `checkout: ${result.written} written, ${result.unchanged} unchanged, ${result.keptLocal.length} kept (local edits) in ${dir}\n`,
    );
  });
}

function parseTypes(value: string, known: readonly CheckoutType[]): CheckoutType[] {
  const types = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const type of types) {
    if (!(known as readonly string[]).includes(type))
      throw new UsageError(`--type: expected ${known.join(' and/or ')}, got "${type}"`);
  }
  return types as CheckoutType[];
}
