import { Command } from 'commander';
import type { BuildResult, CommonFlags } from '../index.js';
import type { CliIo } from './run-cli.js';
import {
  cacheOption,
  jsonOption,
  langOption,
  outOption,
  pipelineOption,
  templatesOption,
  translationsOption,
} from './shared-options.js';

interface BuildFlags extends CommonFlags {
  json?: boolean;
  force?: boolean;
}

export function buildCommand(io: CliIo): Command {
  const command = new Command('build').description(
    'build output/{lang}/ static sites from the cache (only what changed)',
  );
  langOption(
    pipelineOption(command),
    "languages to build, e.g. pl,es (default: the pipeline, else all in the cache); pages list every language either way, in the pipeline's order, else sorted by code",
  );
  templatesOption(outOption(cacheOption(command))).option('--force', 'render every page again');
  return jsonOption(translationsOption(command), 'summary on stdout').action(
    async (flags: BuildFlags) => {
      const { resolveSettings, build } = await import('../index.js');
      const settings = resolveSettings(flags, io.env, io.cwd);
      const result = await build({
        settings,
        force: flags.force ?? false,
        ...(flags.json ? {} : { onLine: (line: string) => io.stderr.write(`build ${line}\n`) }),
      });
      printBuild(io, result, flags.json ?? false);
    },
  );
}

export function buildJson(summary: BuildResult): Record<string, unknown> {
  const languages: Record<string, unknown> = {};
  for (const [lang, result] of Object.entries(summary.languages)) {
    languages[lang] = {
      written: result.written,
      unchanged: result.unchanged,
      removed: result.removed,
      pages: result.pages,
      skipped: result.skipped,
      seconds: round(result.seconds),
      phases: result.phases,
      ...(result.plan !== undefined ? { plan: result.plan, planned: result.planned } : {}),
    };
  }
  return {
    languages,
    total: {
      ...summary.total,
      seconds: round(summary.total.seconds),
      wallSeconds: round(summary.total.wallSeconds),
    },
  };
}

export function printBuild(io: CliIo, summary: BuildResult, json: boolean): void {
  if (json) {
    io.stdout.write(`${JSON.stringify(buildJson(summary))}\n`);
    return;
  }
  for (const [lang, result] of Object.entries(summary.languages)) {
    for (const warning of result.warnings) io.stderr.write(`warning: ${lang}: ${warning}\n`);
    io.stdout.write(`${lang}: ${result.index}\n`);
  }
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
