import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceSite, type ReferenceSite } from '../../../src/reference/index.js';
import { resolveSettings } from '../../../src/config/settings.js';
import { checkout } from '../../../src/push/index.js';
import { openStore } from '../../../src/store/index.js';
import { watchCheckouts } from '../../../src/watch/index.js';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';
import { mirrorLanguage, siteClient } from './site-fixture.js';

describe('watch --push', () => {
  let site: ReferenceSite;
  let temp: TempCache;
  let dir: string;

  beforeEach(async () => {
    site = await startReferenceSite();
    temp = tempCache();
    dir = path.join(temp.dir, 'content');
    const store = openStore(temp.file);
    try {
      await mirrorLanguage(site, 'pl', store);
      checkout({ store, dir, languages: ['pl'] });
    } finally {
      store.close();
    }
  });
  afterEach(async () => {
    await site?.close();
    temp?.cleanup();
  });

  it('pushes a saved file to the site, and stops cleanly on abort', async () => {
    const settings = resolveSettings(
      { site: site.url, lang: 'pl', cache: temp.file },
      { CMS_USER: site.credentials.user, CMS_APP_PASSWORD: site.credentials.password },
      temp.dir,
    );
    const store = openStore(temp.file);
    const checkoutRow = store.checkouts.list('pl').find((row) => row.type === 'posts')!;
    store.close();
    const lines: string[] = [];
    const controller = new AbortController();
    let ready!: () => void;
    const isReady = new Promise<void>((resolve) => (ready = resolve));
    const watching = watchCheckouts({
      settings,
      dir,
      push: true,
      debounceMs: 100,
      onLine: (line) => lines.push(line),
      signal: controller.signal,
      onReady: () => ready(),
    });
    await isReady;
    const text = readFileSync(checkoutRow.file, 'utf8');
    writeFileSync(checkoutRow.file, text.replace(/^title: .*$/m, 'title: Zapisane w edytorze'));

    const client = siteClient(site.url, 'pl', site.credentials);
    let title = '';
    try {
      // Generous deadline: the speed itself is measured in the benchmark, not asserted here.
      for (let attempt = 0; attempt < 200 && title !== 'Zapisane w edytorze'; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        title = (
          await client.get<{ title: { raw: string } }>(`cms/v2/posts/${checkoutRow.id}`, {
            context: 'edit',
          })
        ).data.title.raw;
      }
    } finally {
      await client.close();
    }
    expect(title).toBe('Zapisane w edytorze');
    controller.abort();
    await watching;
    expect(lines.some((line) => line.startsWith('pushed: 1 updated'))).toBe(true);
    const after = openStore(temp.file);
    try {
      expect(after.edits.list({ state: 'pending' })).toEqual([]);
      expect(after.edits.list({ state: 'done' })).toHaveLength(1);
    } finally {
      after.close();
    }
  });
});
