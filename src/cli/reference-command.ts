import { Command } from 'commander';
import type { CliIo } from './run-cli.js';
import { nonNegativeInt, port } from './option-parsers.js';

interface ReferenceFlags {
  port: number;
  host: string;
  posts?: number;
  pages?: number;
  media?: number;
  seed?: string;
  faults?: string;
  hostile?: boolean;
  sluglessDrafts?: boolean;
  overlapWith?: string;
  attachmentsFollowParent?: boolean;
  versionCounts: boolean;
  deletableRevisions?: boolean;
  urlVariants?: boolean;
  independentIds?: boolean;
}

export function referenceCommand(io: CliIo): Command {
  return new Command('reference')
    .description('serve the embedded reference site (a faithful cms-json server with demo content)')
    .option('--port <n>', 'port to listen on (0 picks a free one)', port, 8787)
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option('--posts <n>', 'posts per language', nonNegativeInt)
    .option('--pages <n>', 'pages per language', nonNegativeInt)
    .option('--media <n>', 'media items per language', nonNegativeInt)
    .option('--seed <text>', 'seed for the deterministic content')
    .option('--faults <spec>', 'inject faults, e.g. latency=20ms,error=0.1,429=0.05,reset=0.02')
    .option('--hostile', 'add items with hostile slugs, links and file names')
    .option(
      '--slugless-drafts',
      'drafts and pending items have an empty slug, as deployed servers answer',
    )
    .option(
      '--overlap-with <seed>',
      "also hold the site's own items with the slugs and dates of some items of the site seeded with <seed> (a migration target with content)",
    )
    .option(
      '--attachments-follow-parent',
      'media attached to a draft are counted in X-CMS-Total but hidden from anonymous readers, as on deployed servers',
    )
    .option('--no-version-counts', 'leave _links["version-history"][0].count out of items')
    .option(
      '--deletable-revisions',
      'let editors delete revisions (by default they cannot, as on deployed servers: 403 rest_cannot_delete)',
    )
    .option(
      '--url-variants',
      'content also refers to media and items by other URLs (size variants, other prefix or scheme, relative, short links)',
    )
    .option(
      '--independent-ids',
      'serve each language as a separate site: ids are independent (post 12 in pl and in es are unrelated)',
    )
    .action(async (flags: ReferenceFlags) => {
      const { startReferenceSite, parseFaults } = await import('../reference/index.js');
      const faults = flags.faults === undefined ? undefined : parseFaults(flags.faults);
      const site = await startReferenceSite({
        host: flags.host,
        port: flags.port,
        ...(flags.posts !== undefined ? { posts: flags.posts } : {}),
        ...(flags.pages !== undefined ? { pages: flags.pages } : {}),
        ...(flags.media !== undefined ? { media: flags.media } : {}),
        ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
        ...(faults !== undefined ? { faults } : {}),
        ...(flags.hostile ? { hostile: true } : {}),
        ...(flags.sluglessDrafts ? { sluglessDrafts: true } : {}),
        ...(flags.overlapWith !== undefined ? { overlapWith: flags.overlapWith } : {}),
        ...(flags.attachmentsFollowParent ? { attachmentsFollowParent: true } : {}),
        versionCounts: flags.versionCounts,
        ...(flags.deletableRevisions ? { deletableRevisions: true } : {}),
        ...(flags.urlVariants ? { urlVariants: true } : {}),
        ...(flags.independentIds ? { independentIds: true } : {}),
      });
      io.stdout.write(
        [
          `Reference site: ${site.url}`,
          `  pl: ${site.url}/pl/cms-json/`,
          `  es: ${site.url}/es/cms-json/`,
          `CMS_USER=${site.credentials.user}`,
          `CMS_APP_PASSWORD=${site.credentials.password}`,
          'Press Ctrl+C to stop.',
          '',
        ].join('\n'),
      );
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await site.close();
    });
}
