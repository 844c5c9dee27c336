import { Option, type Command } from 'commander';
import { nonNegativeInt } from './option-parsers.js';

/**
 * The flags several commands share, each defined once: its spelling, its parser and its usual
 * help line. A command whose flag means something narrower there (`checkout --cache` only
 * reads) passes its own help line; the flag itself stays the same. Each function adds the
 * flag to the command and returns it, so a command lists its flags in the order it shows them.
 */

export function pipelineOption(command: Command, help = 'pipeline file', file?: string): Command {
  return file === undefined
    ? command.option('--pipeline <file>', help)
    : command.option('--pipeline <file>', help, file);
}

export function siteOption(command: Command, help = 'base URL of the site'): Command {
  return command.option('--site <url>', help);
}

export function langOption(command: Command, help = 'languages, e.g. pl,es'): Command {
  return command.option('--lang <list>', help);
}

export function cacheOption(command: Command, help = 'SQLite cache'): Command {
  return command.option('--cache <file>', help);
}

/** `--allow-insecure-http`; `target` names what credentials go to (a site, a migration target). */
export function insecureHttpOption(command: Command, target = 'site'): Command {
  return command.option(
    '--allow-insecure-http',
    `send credentials to an http: ${target} that is not this machine (clear text)`,
  );
}

/** What every command that talks to a site takes: --pipeline, --site, --lang, --cache, --allow-insecure-http. */
export function siteOptions(command: Command): Command {
  return insecureHttpOption(cacheOption(langOption(siteOption(pipelineOption(command)))));
}

/** `--json`; `what` is what the one line on stdout holds. */
export function jsonOption(command: Command, what = 'summary'): Command {
  return command.option('--json', `print one machine-readable ${what}`);
}

export function outOption(
  command: Command,
  help = 'output directory; each language goes to <dir>/<lang>/',
): Command {
  return command.option('--out <dir>', help);
}

export function templatesOption(
  command: Command,
  help = 'an Eleventy theme directory instead of the built-in one',
): Command {
  return command.option('--templates <dir>', help);
}

export function dirOption(
  command: Command,
  help = 'checkout dir (default: the pipeline\'s push.dir, "content")',
): Command {
  return command.option('--dir <dir>', help);
}

export function translationsOption(command: Command): Command {
  return command.addOption(
    new Option(
      '--translations <mode>',
      "how items pair with their translations: same-id (one content set under every language) or none (separate sites; the switcher goes to the other language's home). Default: the pipeline's, else none",
    ).choices(['same-id', 'none']),
  );
}

/** A pull's own flags: --backup and --full-sweep-every. */
export function pullOptions(command: Command): Command {
  return command
    .option('--backup', 'also mirror revisions and autosaves (needs credentials)')
    .option(
      '--full-sweep-every <n>',
      'list every collection in full every Nth pull, to find deletions counts cannot show (0 = never; default 20)',
      nonNegativeInt,
    );
}
