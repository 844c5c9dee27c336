import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { collectionRoute, ITEM_TYPES } from '../collections.js';
import type { CliIo } from './run-cli.js';
import { langOption, siteOption } from './shared-options.js';

interface InitFlags {
  site?: string;
  lang?: string;
  out: string;
  force?: boolean;
}

/** What a pull needs from every language's index; init checks it before writing anything. */
const PULL_ROUTES = ITEM_TYPES.map(collectionRoute);

export function initCommand(io: CliIo): Command {
  const command = new Command('init').description(
    "check a site's index and write a commented pipeline file for it (no credentials in it)",
  );
  siteOption(command, 'base URL of the site (the part before /{lang}/cms-json/)');
  return langOption(command)
    .option('--out <file>', 'the pipeline file to write', 'cms-mirror.yaml')
    .option('--force', 'overwrite the file if it exists')
    .action(async (flags: InitFlags) => {
      const { resolveSettings, existsError, pipelineText, writePipelineFile } =
        await import('../config/index.js');
      // The same checks as every command's --site/--lang; the environment is not read here.
      const settings = resolveSettings(
        {
          ...(flags.site !== undefined ? { site: flags.site } : {}),
          ...(flags.lang !== undefined ? { lang: flags.lang } : {}),
        },
        {},
        io.cwd,
      );
      const file = path.resolve(io.cwd, flags.out);
      // Refuse before any request: a user who forgot --force should not wait for the check.
      if (!flags.force && existsSync(file)) throw existsError(file);
      const { site, languages } = settings;
      if (site !== undefined && languages.length > 0) {
        for (const lang of languages) await checkLanguage(site, lang);
      }
      writePipelineFile(file, pipelineText({ site, languages }), { force: flags.force ?? false });
      const missing = [
        ...(site === undefined ? ['site'] : []),
        ...(languages.length === 0 ? ['languages'] : []),
      ];
      const checked =
        missing.length === 0
          ? ` for ${site} (${languages.join(', ')}: the index has what a pull needs)`
          : `; fill in ${missing.join(' and ')} (not checked against a site)`;
      io.stdout.write(`init: wrote ${file}${checked}\n`);
      io.stdout.write(
        'init: set CMS_USER and CMS_APP_PASSWORD (an application password) in the environment for drafts, backups and push\n',
      );
      io.stdout.write(`init: next: cms-mirror pull --pipeline ${flags.out}\n`);
    });
}

/** One read of the language's index: a SiteError (exit 2) names the URL if it is not a site. */
async function checkLanguage(site: string, lang: string): Promise<void> {
  const { CmsClient, discoverSite } = await import('../client/index.js');
  const client = new CmsClient({ site, lang, retries: 2, timeoutMs: 15_000 });
  try {
    await discoverSite(client, PULL_ROUTES);
  } finally {
    await client.close();
  }
}
