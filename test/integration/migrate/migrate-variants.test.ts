/**
 * Issue 13, point 3: content refers to the source's items and files by more than their
 * `link` and `source_url` (size variants and `srcset`, another prefix or scheme, relative
 * URLs, short links). After a migration no migrated item on the target refers to anything
 * under the source language's home or its uploads, whether the target is another host or
 * another language of the same host; a source URL that matches nothing migrated stays and is
 * named in the run's warnings.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceSite, type ReferenceSite } from '../../../src/reference/index.js';
import type { CmsClient } from '../../../src/client/index.js';
import { credentialEnv } from '../../helpers/cli-args.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { mirrorLanguageInto, siteClient } from '../../helpers/push-site-fixture.js';

type Item = Record<string, unknown> & { id: number; link: string; content: { raw: string } };
const STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];
const UPLOADS = '/cms-content/uploads/';

async function all(client: CmsClient, type: 'posts' | 'pages' | 'media'): Promise<Item[]> {
  const items: Item[] = [];
  const status = type === 'media' ? ['inherit', 'private'] : STATUSES;
  for await (const page of client.paginate<Item>(`cms/v2/${type}`, {
    per_page: 100,
    context: 'edit',
    status,
  })) {
    items.push(...page.items);
  }
  return items;
}

/** Every URL in `html`: attribute values (each `srcset` candidate) and absolute URLs in text. */
function urlsIn(html: string, base: string): URL[] {
  const found: URL[] = [];
  const add = (value: string) => {
    const text = value.replace(/\\\//g, '/').replace(/&amp;/g, '&').trim();
    if (text === '' || text.startsWith('#')) return;
    try {
      found.push(new URL(text, base));
    } catch {
      // not a URL
    }
  };
  const rest = html.replace(
    /\s(src|href|poster|srcset)\s*=\s*(["'])([^"']*)\2/gi,
    (_, name, _q, value: string) => {
      if (String(name).toLowerCase() === 'srcset')
        for (const candidate of value.split(',')) add(candidate.trim().split(/\s+/)[0] ?? '');
      else add(value);
      return ' ';
    },
  );
  for (const match of rest.matchAll(/(?:https?:)?(?:\\?\/){2}[^\s"'<>)\]]+/g)) add(match[0]);
  return found;
}

/**
 * References to the source: under its language home, or to one of its files (by the path
 * below the uploads, under any prefix or scheme of its host).
 */
function sourceReferences(
  items: readonly Item[],
  source: { host: string; home: string; files: ReadonlySet<string> },
): string[] {
  const found: string[] = [];
  for (const item of items) {
    for (const url of urlsIn(item.content.raw, item.link)) {
      if (url.host !== source.host) continue;
      const at = url.pathname.indexOf(UPLOADS);
      const file = at >= 0 ? url.pathname.slice(at + UPLOADS.length) : undefined;
      if (url.pathname.startsWith(source.home) || (file && source.files.has(file)))
        found.push(`${item.id}: ${url.href}`);
    }
  }
  return found;
}

describe('migrate content that refers to the source by URL variants', () => {
  let source: ReferenceSite;
  let target: ReferenceSite | undefined;
  let temp: TempCache;
  let files: Set<string>;

  const fixture = useSiteAndCache({ urlVariants: true });

  beforeEach(async () => {
    ({ site: source, temp } = fixture);
    // A link to a page that does not exist: it matches nothing migrated.
    const client = siteClient(source.url, 'pl', source.credentials);
    try {
      await client.request('POST', 'cms/v2/posts', {
        body: {
          title: 'Dangling',
          status: 'publish',
          content: `<p><a href="${source.url}/pl/no-such-page/">gone</a></p>`,
        },
      });
      files = new Set(
        (await all(client, 'media')).flatMap((item) => {
          const sizes = Object.values(
            ((item.media_details as { sizes?: Record<string, { source_url: string }> }) ?? {})
              .sizes ?? {},
          ).map((size) => size.source_url);
          return [item.source_url as string, ...sizes].map((url) => {
            const path = new URL(url).pathname;
            return path.slice(path.indexOf(UPLOADS) + UPLOADS.length);
          });
        }),
      );
    } finally {
      await client.close();
    }
    await mirrorLanguageInto(source, 'pl', temp.file, { media: true });
  });
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });

  async function migrateAndCount(
    to: ReferenceSite,
    toLang: string,
  ): Promise<{ references: string[]; warnings: string; migrated: number }> {
    const client = siteClient(to.url, toLang, to.credentials);
    try {
      const before = new Set(
        [...(await all(client, 'posts')), ...(await all(client, 'pages'))].map((item) => item.id),
      );
      const result = await runCliCaptured(
        [
          'migrate',
          ...['--from-cache', temp.file, '--from-lang', 'pl', '--to', to.url, '--to-lang', toLang],
          // The other language of the same host has items with some of the same slugs.
          ...['--on-conflict', 'beside'],
        ],
        { env: credentialEnv(to), cwd: temp.dir },
      );
      expect(result.code, result.stderr).toBe(0);
      const migrated = [...(await all(client, 'posts')), ...(await all(client, 'pages'))].filter(
        (item) => !before.has(item.id),
      );
      const host = new URL(source.url).host;
      return {
        references: sourceReferences(migrated, { host, home: '/pl/', files }),
        warnings: result.stderr,
        migrated: migrated.length,
      };
    } finally {
      await client.close();
    }
  }

  it('into another site: zero references to the source home and uploads', async () => {
    target = await startReferenceSite({ posts: 0, pages: 0, media: 0, seed: 'target' });
    const run = await migrateAndCount(target, 'pl');
    expect(run.migrated).toBeGreaterThan(20);
    // The dangling link stays (it is the source's) and is named in the warnings.
    expect(run.references).toEqual([
      expect.stringMatching(new RegExp(`: ${source.url}/pl/no-such-page/$`)),
    ]);
    expect(run.warnings).toContain(`${source.url}/pl/no-such-page/ matches no migrated item`);
  });

  it('into another language of the same host: zero references to the source language', async () => {
    const run = await migrateAndCount(source, 'es');
    expect(run.migrated).toBeGreaterThan(20);
    expect(run.references).toEqual([
      expect.stringMatching(new RegExp(`: ${source.url}/pl/no-such-page/$`)),
    ]);
  });
});
