import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findChromium, NO_BROWSER_MESSAGE } from '../../helpers/find-browser.js';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';

describe('findChromium (how the browser tests get a browser)', () => {
  let temp: TempCache;
  let bin: string;
  const npmOne = async () =>
    ({ executablePath: '/from/npm', args: ['--x'], source: '@sparticuz/chromium' }) as const;
  const npmNone = async () => undefined;

  beforeEach(() => {
    temp = tempCache();
    bin = path.join(temp.dir, 'bin');
    mkdirSync(bin);
  });
  afterEach(() => temp.cleanup());

  const fakeBrowser = (name: string, dir = bin): string => {
    const file = path.join(dir, name);
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, 0o755);
    return file;
  };

  it('takes CHROMIUM_PATH first, and refuses one that is not an executable', async () => {
    const named = fakeBrowser('my-chrome');
    fakeBrowser('chromium');
    expect(await findChromium({ CHROMIUM_PATH: named, PATH: bin }, npmOne)).toEqual({
      executablePath: named,
      args: [],
      source: 'CHROMIUM_PATH',
    });
    await expect(
      findChromium({ CHROMIUM_PATH: path.join(bin, 'nothing'), PATH: bin }, npmOne),
    ).rejects.toThrow(/^CHROMIUM_PATH=.*nothing is not an executable file/);
  });

  it('then the system one on PATH, in the order chromium, chromium-browser, google-chrome', async () => {
    const chrome = fakeBrowser('google-chrome');
    expect((await findChromium({ PATH: bin }, npmOne)).executablePath).toBe(chrome);
    const chromiumBrowser = fakeBrowser('chromium-browser');
    expect((await findChromium({ PATH: bin }, npmOne)).executablePath).toBe(chromiumBrowser);
    // A file that is not executable is not a browser.
    writeFileSync(path.join(bin, 'chromium'), '');
    expect((await findChromium({ PATH: bin }, npmOne)).source).toBe('system');
    expect((await findChromium({ PATH: bin }, npmOne)).executablePath).toBe(chromiumBrowser);
  });

  it("then the npm registry's, and otherwise one line saying how to get one", async () => {
    expect(await findChromium({ PATH: bin }, npmOne)).toMatchObject({
      source: '@sparticuz/chromium',
    });
    const error = await findChromium({ PATH: bin }, npmNone).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(NO_BROWSER_MESSAGE);
    expect(NO_BROWSER_MESSAGE).not.toContain('\n');
    expect(NO_BROWSER_MESSAGE).toMatch(/CHROMIUM_PATH.*apt-get install chromium.*npm install/);
  });
});
