import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readPlainYaml } from '../../../src/config/plain-yaml.js';
import { pipelineText } from '../../../src/config/pipeline-writer.js';

/**
 * The oracle is the `yaml` package itself: for any text, `readPlainYaml` either leaves it to
 * the package (undefined) or gives exactly what the package gives. A text the package refuses
 * must be left to it, so its error (with the line) is what the user sees.
 */
function packageValue(text: string): { value: unknown } | 'error' {
  try {
    return { value: parse(text) as unknown };
  } catch {
    return 'error';
  }
}

function expectSameOrLeft(text: string): boolean {
  const plain = readPlainYaml(text);
  if (plain === undefined) return false;
  expect(packageValue(text), JSON.stringify(text)).toStrictEqual({ value: plain.value });
  return true;
}

describe('readPlainYaml', () => {
  it('reads every pipeline file `cms-mirror init` writes, as the yaml package does', () => {
    for (const options of [
      {},
      { site: 'https://example.org', languages: ['pl', 'es'] },
      { site: 'http://127.0.0.1:8787/', languages: ['pt-br'] },
    ]) {
      expect(expectSameOrLeft(pipelineText(options)), JSON.stringify(options)).toBe(true);
    }
  });

  it('reads the plain forms a hand-written pipeline file uses', () => {
    const plain = [
      'http:\n  requestsPerSecond: 0\n',
      '# only a comment\n\n',
      'site: https://example.org\nlanguages: [pl, es]\ncache: ../cache/demo.sqlite\n',
      'site: "https://example.org" # the site\nlanguages:\n  - pl\n  - es\n',
      "output: 'it''s here'\nbackup: false\nhttp:\n    concurrency: 3 # per language\n    requestsPerSecond: 0.5\n",
      'cache: /var/cache/cms.sqlite\nmedia:\n  allowedOrigins: []\n  maxBytes: 1048576\n',
      'templates: ./my-theme\noutput: out_dir\npush:\n  dir: "content\\\\edits\\u00e9"\n',
      'auth:\n  userEnv: MY_USER\n  passwordEnv: MY_PASS\npull:\n  fullSweepEvery: 20\n',
      'site: http://127.0.0.1:8787   \nlanguages: [pl]   # trailing spaces\n',
    ];
    for (const text of plain) expect(expectSameOrLeft(text), JSON.stringify(text)).toBe(true);
  });

  it('leaves to the package what YAML could read another way, or refuses', () => {
    const other = [
      'a: yes\n',
      'a: No\n',
      'a: True\n',
      'a: NULL\n',
      'a: ~\n',
      'a: 0x1F\n',
      'a: 0o17\n',
      'a: 012\n',
      'a: 1e3\n',
      'a: .5\n',
      'a: .inf\n',
      'a: -0\n',
      'a: +1\n',
      'a: 12345678901234567890\n',
      'a:\n',
      'a:\nb: 1\n',
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      'a: |\n  text\n',
      'a: >\n  text\n',
      'a: "two\n  lines"\n',
      'a: b: c\n',
      'a: b:\n',
      'a: 1\na: 2\n',
      'a:\n  b: 1\n  b: 2\n',
      'a:\n  b:\n    c: 1\n',
      'a:\n  b: 1\n   c: 2\n',
      'a:\n  - 1\n  b: 2\n',
      'a:\n  b: 1\n  - 2\n',
      '- a\n- b\n',
      '---\na: 1\n',
      'a: 1\n...\n',
      '%YAML 1.2\n---\na: 1\n',
      'a: [b, [c]]\n',
      'a: [b: c]\n',
      'a: [x] y\n',
      'a: {b: 1}\n',
      'a: "x" y\n',
      'a: x #y\n',
      'a: x#y\n',
      "a: 'x\n",
      'a: "\\x41"\n',
      'a: "\\ud800"\n',
      'a: @x\n',
      'a: `x\n',
      'a: 1\r\nb: 2\r\n',
      'a:\tb\n',
      '\uFEFFa: 1\n',
      'a: "x\u0001"\n',
      "a: 'x\u0085'\n",
      'a: x\u007F\n',
      '  a: 1\n',
      'a b: 1\n',
      '"a": 1\n',
      '? a\n: 1\n',
      'true: 1\n',
      'a: 1 # c\n  b: 2\n',
    ];
    for (const text of other) expectSameOrLeft(text);
  });

  it('gives what the yaml package gives for thousands of generated documents', () => {
    const tokens = [
      ...['pl', 'es', 'none', 'same-id', 'CMS_USER', 'a_b', 'x.y', 'https://e.org/p?', 'a/b'],
      ...['./x', '../x', '/x', '.x', '0', '7', '-3', '1.5', '-0.25', '00', '1.', '1e2', '0x1'],
      ...['true', 'false', 'True', 'FALSE', 'null', 'Null', '~', 'yes', 'off', 'y', 'n'],
      ...['"q"', '"a\\"b"', '"\\u00e9\\n"', "'s'", "'it''s'", "''", '""', 'a:b', 'a:', 'a #c'],
      ...['[]', '[pl, es]', '[1, true, x]', '[ a ,b ]', '[a:b]', '["a"]', '[a]#c', '[a] #c'],
      ...['a b', 'a  #c', '-', '- a', '&a x', '*a', '!t x', '|', '>', '@x', '%x', 'a,b', '{}'],
      ...['1_000', 'a::b', '//x', '<<', '2001-12-14', '1:20', 'zażółć', '"zażółć"', '_x', 'a=b+c'],
    ];
    const keys = ['site', 'languages', 'a', 'b', 'k_1', 'null', 'Yes'];
    let seed = 17;
    const next = (n: number): number => {
      // An LCG's low bits repeat with short periods: its high bits pick.
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * n);
    };
    const pick = <T>(list: readonly T[]): T => list[next(list.length)] as T;
    const line = (indent: string): string => {
      switch (next(6)) {
        case 0:
          return `${indent}# comment ${pick(tokens)}`;
        case 1:
          return '';
        case 2:
          return `${indent}- ${pick(tokens)}`;
        default:
          return `${indent}${pick(keys)}:${next(8) === 0 ? '' : ` ${pick(tokens)}`}`;
      }
    };
    let read = 0;
    for (let i = 0; i < 3000; i++) {
      const lines: string[] = [];
      for (let n = 1 + next(3); n > 0; n--) {
        lines.push(line(''));
        if (next(3) === 0) {
          const indent = ' '.repeat(1 + next(4));
          for (let m = 1 + next(2); m > 0; m--) lines.push(line(next(5) === 0 ? ' ' : indent));
        }
      }
      if (expectSameOrLeft(`${lines.join('\n')}\n`)) read++;
    }
    // Not every document is left to the package: the reader reads a good share of them.
    expect(read).toBeGreaterThan(200);
  });
});
