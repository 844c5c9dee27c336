/**
 * Pagefind driven through its service protocol (`pagefind-service.ts`, `search-index.ts`): a
 * bundle's files are byte for byte those Pagefind's own Node API gets for the same records (the
 * oracle: the `pagefind` package, one message and one wait at a time); a bundle's records reach
 * Pagefind without waiting for its index's answer; an error answer is an `E_SEARCH_INDEX`; a process that does not read does not hold the sending thread; closing
 * waits for the process to exit, so none is left to collect.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import * as pagefindApi from 'pagefind';
import { PagefindService } from '../../../src/site/pagefind-service.js';
import { buildSearchShard } from '../../../src/site/search-index.js';
import type { SearchShard } from '../../../src/site/search-plan.js';
import { pagefindChildren } from '../../helpers/pagefind-children.js';

let service: PagefindService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  await pagefindApi.close();
});

/** Plain words (no tags, entities or runs of white space), so a record's text is the HTML as is. */
function shardOf(count: number): SearchShard {
  const docs = Array.from({ length: count }, (_, at) => ({
    key: `post:${at + 1}`,
    url: `/pl/wpis-${at + 1}/`,
    title: `Zażółć gęślą jaźń ${at + 1}`,
    html: `Wpis numer ${at + 1} o ${at % 3 === 0 ? 'kotach' : 'psach'} i łąkach ${'słowo '.repeat(at % 7)}koniec`,
    digest: `d${at}`,
  }));
  return { index: 3, dir: 'pagefind/s3', digest: 'x', docs } as unknown as SearchShard;
}

/** The oracle: Pagefind's own Node API, every file it returns. */
async function filesFromApi(shard: SearchShard, lang: string): Promise<Map<string, Buffer>> {
  const { index } = await pagefindApi.createIndex({ forceLanguage: lang });
  if (!index) throw new Error('no index');
  for (const doc of shard.docs) {
    await index.addCustomRecord({
      url: doc.url,
      content: `${doc.title}. ${doc.html}`,
      language: lang,
      meta: { title: doc.title },
    });
  }
  const { files } = await index.getFiles();
  await index.deleteIndex();
  return new Map(files.map((file) => [`${shard.dir}/${file.path}`, Buffer.from(file.content)]));
}

describe("Pagefind's service", () => {
  it("gives a bundle's files byte for byte as Pagefind's own Node API does", async () => {
    // Enough records that the files come back in many chunks of the pipe.
    const shard = shardOf(300);
    const expected = await filesFromApi(shard, 'pl');
    service = new PagefindService();
    // Two bundles at once, as a build's two lanes send them to one process.
    const [ours, again] = await Promise.all([
      buildSearchShard(shard, 'pl', service),
      buildSearchShard(shard, 'pl', service),
    ]);
    // Pagefind's alternative UIs and highlighter are left out of a bundle.
    const unused = [...expected.keys()].filter((file) =>
      /\/pagefind-(component-ui|modular-ui|highlight)\./.test(file),
    );
    expect(unused.length).toBeGreaterThan(0);
    expect([...ours.keys()].sort()).toEqual(
      [...expected.keys()].filter((file) => !unused.includes(file)).sort(),
    );
    expect([...ours.keys()].filter((file) => file.includes('/fragment/')).length).toBe(300);
    for (const [file, bytes] of ours)
      expect(Buffer.from(bytes).equals(expected.get(file)!)).toBe(true);
    expect([...again]).toEqual([...ours]);
  }, 60_000);

  it("sends a bundle's records before the index's answer is read: Pagefind has them while this thread is busy", async () => {
    const before = pagefindChildren();
    service = new PagefindService();
    // A first bundle, so that the next is not the process's first index.
    await buildSearchShard(shardOf(2), 'pl', service);
    const [pid] = pagefindChildren().filter((child) => !before.includes(child));
    const readBytes = (): number =>
      Number(/rchar: (\d+)/.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1]);
    const read = readBytes();
    const files = buildSearchShard(shardOf(300), 'pl', service);
    // This thread does not wait for an answer: it stays busy, as an edit build's thread plans.
    // Waited for Pagefind's reads, not for a time (up to 20 s on a loaded machine).
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let tries = 0; tries < 400 && readBytes() - read < 100_000; tries++)
      Atomics.wait(pause, 0, 0, 50);
    expect(readBytes() - read, 'bytes Pagefind read before an answer was').toBeGreaterThan(100_000);
    expect([...(await files).keys()].filter((file) => file.includes('/fragment/'))).toHaveLength(
      300,
    );
  }, 60_000);

  it('rejects a request Pagefind answers with an error as E_SEARCH_INDEX', async () => {
    service = new PagefindService();
    const [answer] = service.send([
      { type: 'AddRecord', index_id: 99, url: '/x/', content: 'x', language: 'pl', meta: {} },
    ]);
    await expect(answer).rejects.toMatchObject({ code: 'E_SEARCH_INDEX' });
    // The process still answers what comes next.
    const [created] = service.send([{ type: 'NewIndex', config: {} }]);
    await expect(created).resolves.toMatchObject({ type: 'NewIndex' });
  });

  it('does not hold the sending thread while its process does not read', async () => {
    const before = pagefindChildren();
    service = new PagefindService();
    const [created] = service.send([{ type: 'NewIndex', config: {} }]);
    const { index_id: indexId } = (await created!) as { index_id?: number };
    const [pid] = pagefindChildren().filter((child) => !before.includes(child));
    const state = (): string => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0]!;
    process.kill(Number(pid), 'SIGSTOP');
    // Resumed by another process: this thread may be the one held.
    const resume = spawn('sh', ['-c', `sleep 5; kill -CONT ${pid}`], { stdio: 'ignore' });
    try {
      // Far more than a pipe holds.
      const records = Array.from({ length: 4000 }, (_, at) => ({
        type: 'AddRecord',
        index_id: indexId,
        url: `/p/${at}/`,
        content: `słowo ${at} `.repeat(40),
        language: 'pl',
        meta: { title: `t${at}` },
      }));
      const answers = service.send(records);
      expect(state(), 'the process still stopped when the write returned').toBe('T');
      await once(resume, 'exit');
      const answered = await Promise.all(answers);
      expect(answered).toHaveLength(4000);
    } finally {
      resume.kill();
      process.kill(Number(pid), 'SIGCONT');
    }
  }, 60_000);

  it('waits for its process to exit when closed: none is left to collect', async () => {
    // The oracle's processes (stopped without a wait) may be collected meanwhile: only new
    // pids count.
    const before = pagefindChildren();
    const started = (): string[] => pagefindChildren().filter((pid) => !before.includes(pid));
    service = new PagefindService();
    await service.send([{ type: 'NewIndex', config: {} }])[0];
    expect(started()).toHaveLength(1);
    await service.close();
    service = undefined;
    expect(started()).toEqual([]);
  });
});
