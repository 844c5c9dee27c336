/** `serve` shows the sites, never the build's own bookkeeping beside them (staging, stamps). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStaticServer, type StaticServer } from '../../../src/site/static-server.js';

let dir: string;
let server: StaticServer;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-serve-state-'));
  fs.mkdirSync(path.join(dir, 'pl'));
  fs.mkdirSync(path.join(dir, '.cms-mirror', 'pl.stage'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'pl', 'index.html'), 'home');
  fs.writeFileSync(path.join(dir, '.cms-mirror', 'pl.stamp'), 'stamp');
  fs.writeFileSync(path.join(dir, '.cms-mirror', 'pl.stage', 'index.html'), 'staged');
  server = await startStaticServer(dir);
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it.each(['/.cms-mirror/pl.stamp', '/.cms-mirror/pl.stage/', '/.cms-mirror/pl.stage/index.html'])(
  '%s is not served',
  async (url) => {
    const response = await fetch(`${server.url}${url}`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toMatch(/stamp|staged/);
  },
);

it('the site beside it is', async () => {
  const response = await fetch(`${server.url}/pl/`);
  expect(await response.text()).toBe('home');
});
