/**
 * The hostile body scenarios (issue 14, points 2 and 6a), shared by protocol-body.test.ts and
 * the benchmark. Each rewrites the answer to a list of posts (or the site index).
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { HostileAnswer } from './hostile-server.js';

export type Rewrite = (body: Buffer, up: { headers: Record<string, string> }) => HostileAnswer;

export interface BodyCase {
  readonly name: string;
  /** Which requests are answered badly: crawl lists of posts (default) or the site index. */
  readonly target?: 'posts' | 'index';
  readonly answer: Rewrite;
  /** 0: mirrored exactly; 1 or 2: refused with that exit code and a line matching `line`. */
  readonly code: 0 | 1 | 2;
  readonly line?: RegExp;
  readonly http?: Record<string, number>;
}

const json = (body: Buffer | string, headers: Record<string, string> = {}): HostileAnswer => ({
  body,
  headers: { 'content-type': 'application/json; charset=UTF-8', ...headers },
});

/** A JSON list text whose records are padded with `pad` characters each. */
const nested = (depth: number, open = '[', close = ']'): string =>
  `${open.repeat(depth)}${close === ']' ? '' : '1'}${close.repeat(depth)}`;

export const CASES: readonly BodyCase[] = [
  {
    name: 'gzip body with Content-Encoding: gzip',
    answer: (b) => json(gzipSync(b), { 'content-encoding': 'gzip' }),
    code: 2,
    line: /the body is compressed \(Content-Encoding: gzip\) though the client did not ask/,
  },
  {
    name: 'gzip body without a Content-Encoding header',
    answer: (b) => json(gzipSync(b)),
    code: 2,
    line: /the body is gzip-compressed data without a Content-Encoding header/,
  },
  {
    name: 'deflate body with Content-Encoding: deflate',
    answer: (b) => json(deflateSync(b), { 'content-encoding': 'deflate' }),
    code: 2,
    line: /compressed \(Content-Encoding: deflate\)/,
  },
  {
    name: 'brotli body with Content-Encoding: br',
    answer: (b) => json(brotliCompressSync(b), { 'content-encoding': 'br' }),
    code: 2,
    line: /compressed \(Content-Encoding: br\)/,
  },
  {
    name: 'zstd frame without a header',
    answer: (b) => json(Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), b])),
    code: 2,
    line: /zstd-compressed data without a Content-Encoding header/,
  },
  {
    name: 'a plain body that says Content-Encoding: identity',
    answer: (b) => json(b, { 'content-encoding': 'identity' }),
    code: 0,
  },
  {
    name: 'gzip on the site index',
    target: 'index',
    answer: (b) => json(gzipSync(b), { 'content-encoding': 'gzip' }),
    code: 2,
    line: /cms-json\/: .*compressed \(Content-Encoding: gzip\)|cms-json\/ .*compressed/,
  },
  {
    name: 'Latin-1 bytes in a JSON body',
    answer: (b) => json(Buffer.from(b.toString('utf8'), 'latin1')),
    code: 2,
    line: /the body is not valid UTF-8/,
  },
  {
    name: 'a UTF-16 body with its byte order mark',
    answer: (b) =>
      json(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(b.toString(), 'utf16le')])),
    code: 2,
    line: /not valid UTF-8/,
  },
  {
    name: 'a UTF-8 byte order mark before valid JSON',
    answer: (b) => json(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b])),
    code: 0,
  },
  {
    name: 'half the body with a matching Content-Length',
    answer: (b) => json(b.subarray(0, Math.floor(b.length / 2))),
    code: 1,
    line: /malformed or cut short .*\(after 2 attempts\)/,
  },
  {
    name: 'a Content-Length longer than the bytes sent, then the connection closes',
    answer: (b) => ({ ...json(b.subarray(0, 100)), declaredLength: b.length }),
    code: 1,
    line: /failed: /,
  },
  {
    name: 'an empty 200 body',
    answer: () => json(''),
    code: 1,
    line: /expected JSON, got an empty body/,
  },
  {
    name: 'an HTML page with status 200',
    answer: () => ({
      body: '<!doctype html><title>Maintenance</title><p>Back soon</p>',
      headers: { 'content-type': 'text/html; charset=UTF-8' },
    }),
    code: 2,
    line: /expected JSON, got text\/html starting with "<!doctype html>/,
  },
  {
    name: 'valid JSON labelled text/plain',
    answer: (b) => ({ body: b, headers: { 'content-type': 'text/plain' } }),
    code: 0,
  },
  {
    name: 'valid JSON labelled application/octet-stream',
    answer: (b) => ({ body: b, headers: { 'content-type': 'application/octet-stream' } }),
    code: 0,
  },
  {
    name: 'valid JSON with an empty content type',
    answer: (b) => ({ body: b, headers: { 'content-type': '' } }),
    code: 0,
  },
  {
    name: 'NaN and Infinity tokens',
    answer: (b) => json(b.toString().replace('"title":{', '"n":NaN,"i":Infinity,"title":{')),
    code: 1,
    line: /malformed or cut short/,
  },
  {
    name: 'junk after the JSON',
    answer: (b) => json(`${b.toString()}<br />\n<b>Warning</b>: PHP notice`),
    code: 1,
    line: /malformed or cut short/,
  },
  {
    name: 'a raw control character inside a string',
    answer: (b) => json(b.toString().replace('"title":{', '"title\u0001":{')),
    code: 1,
    line: /malformed or cut short/,
  },
  {
    name: 'a body larger than http.maxBodyBytes',
    answer: (b) =>
      json(b.toString().replace('"title":{', `"padding":"${'x'.repeat(1_200_000)}","title":{`)),
    http: { maxBodyBytes: 1_048_576 },
    code: 2,
    line: /larger than the limit of 1048576 bytes \(maxBodyBytes\)/,
  },
  {
    name: 'a Content-Length of 10 GB',
    answer: (b) => ({ ...json(b.subarray(0, 10)), declaredLength: 10 * 1024 ** 3 }),
    code: 2,
    line: /larger than the limit of \d+ bytes/,
  },
  {
    name: 'a list nested 100,000 deep',
    answer: () => json(nested(100_000)),
    code: 2,
    line: /nests deeper than 5000 levels: refused/,
  },
  {
    name: 'an object nested 100,000 deep',
    answer: () => json(nested(100_000, '{"a":', '}')),
    code: 2,
    line: /nests deeper than 5000 levels: refused/,
  },
  {
    name: 'a record whose field nests 6,000 deep',
    answer: (b) => json(b.toString().replace('"title":{', `"deep":${nested(6_000)},"title":{`)),
    code: 2,
    line: /nests deeper than 5000 levels: refused/,
  },
  {
    name: 'the site index nested 100,000 deep',
    target: 'index',
    answer: () => json(nested(100_000, '{"a":', '}')),
    code: 2,
    line: /nests deeper than 5000 levels/,
  },
  {
    name: '__proto__ and constructor keys in records',
    answer: (b) =>
      json(
        b
          .toString()
          .replaceAll('"title":{', '"__proto__":{"polluted":true},"constructor":{"x":1},"title":{'),
      ),
    code: 0,
  },
  {
    name: 'numbers beyond double range and duplicate keys',
    answer: (b) => json(b.toString().replaceAll('"title":{', '"big":1e400,"big":-1e400,"title":{')),
    code: 0,
  },
  {
    name: 'lone surrogates and NUL characters in strings',
    answer: (b) => json(b.toString().replaceAll('"title":{', '"odd":"\\ud800\\u0000x","title":{')),
    code: 0,
  },
  {
    name: 'a 5 MB string field',
    answer: (b) =>
      json(b.toString().replace('"title":{', `"big":"${'é'.repeat(2_500_000)}","title":{`)),
    code: 0,
  },
];
