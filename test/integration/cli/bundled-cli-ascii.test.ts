import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli');
const RENDER_WORKER = join(ROOT, 'dist', 'site', 'render-worker.js');
const NON_ASCII = /[^\0-\x7f]/;

type AsciiOnly = (source: string, file: string, options?: { sourceType?: 'script' }) => string;
type WithoutUnusedRequire = (text: string, file: string) => string;

// The build's own scripts (plain JavaScript, run by `npm run build`), loaded as they run there.
async function script<T>(name: string): Promise<T> {
  return (await import(pathToFileURL(join(ROOT, 'scripts', name)).href)) as T;
}
const { asciiOnly } = await script<{ asciiOnly: AsciiOnly }>('ascii-only.mjs');
const { withoutUnusedRequire, REQUIRE_BANNER } = await script<{
  withoutUnusedRequire: WithoutUnusedRequire;
  REQUIRE_BANNER: string;
}>('require-banner.mjs');

/** The value of a script's last expression, in a context of its own. */
function evaluate(source: string): unknown {
  return vm.runInNewContext(source);
}

/** Each probe's matches (all of them, with their groups) under `regex`. */
function matches(regex: RegExp, probes: readonly string[]): unknown[] {
  return probes.map((probe) => [...probe.matchAll(new RegExp(regex.source, `${regex.flags}g`))]);
}

/**
 * V8 keeps a script's text as two bytes a character when one character is past Latin-1, and
 * decodes and scans it as such on every start (issue 17): every bundled file is ASCII, the
 * comments and regular expressions esbuild leaves as written escaped by `ascii-only.mjs`.
 */
describe('ASCII-only bundles', () => {
  it('every file the build bundles is ASCII', () => {
    expect(existsSync(RENDER_WORKER), 'run "npm run build" first').toBe(true);
    const files = [
      ...readdirSync(CLI)
        .filter((file) => /^cms-mirror.*\.js$|^yaml\.cjs$/.test(file))
        .map((file) => join(CLI, file)),
      RENDER_WORKER,
    ];
    expect(files.length).toBeGreaterThan(10);
    const nonAscii = files.filter((file) => NON_ASCII.test(readFileSync(file, 'utf8')));
    expect(nonAscii).toEqual([]);
  });

  const probes = ['é', 'e', 'café', '😀', '😁', '😂😀', '\ud83d', 'x–y', 'x—y', '…', 'név', 'xx'];
  const patterns: Array<[string, string]> = [
    ['é', ''],
    ['caf[éè]', 'i'],
    ['[–—]', 'u'],
    ['😀+', ''],
    ['😀+', 'u'],
    ['[😀-😂]', 'u'],
    ['[😀-😂]', 'v'],
    ['\\é', ''],
    ['\\…|\\.', ''],
    ['(?<név>x)\\k<név>', ''],
    ['(?<név>x)\\k<név>', 'u'],
  ];
  it.each(patterns)(
    'a regular expression /%s/%s matches the same once escaped',
    (pattern, flags) => {
      const source = `const half = 4 / 2; /${pattern}/${flags};`;
      const escaped = asciiOnly(source, 'regex.js', { sourceType: 'script' });
      expect(escaped).not.toMatch(NON_ASCII);
      expect(escaped.startsWith('const half = 4 / 2; /')).toBe(true);
      const before = evaluate(source) as RegExp;
      const after = evaluate(escaped) as RegExp;
      expect(after.flags).toBe(before.flags);
      expect(matches(after, probes)).toEqual(matches(before, probes));
    },
  );

  it('escapes comments as text, a line separator in a block comment as a line end', () => {
    const source = [
      '#!/usr/bin/env node',
      '// café … 😀',
      'function f() { return /* \u2028 */ 1; }',
      '/* “quoted” */ f();',
    ].join('\n');
    const escaped = asciiOnly(source, 'comments.js', { sourceType: 'script' });
    expect(escaped).not.toMatch(NON_ASCII);
    expect(escaped).toContain('// caf\\u00E9 \\u2026 \\uD83D\\uDE00');
    expect(escaped).toContain('/* \\u201Cquoted\\u201D */');
    // The separator ended a line, so `return` returned nothing; it still does.
    expect(evaluate(source.replace(/^#!.*\n/, ''))).toBeUndefined();
    expect(evaluate(escaped.replace(/^#!.*\n/, ''))).toBeUndefined();
  });

  it('leaves an ASCII file as it was', () => {
    const source = 'export const a = /x/u; // plain\n';
    expect(asciiOnly(source, 'plain.js')).toBe(source);
  });

  it.each([
    ['a name', 'const x = 1;\nconst café = 2;', 2, 10],
    ['a string', "const x = 'é';", 1, 12],
    ['a template', 'const x = `a${1}…`;', 1, 17],
  ])('fails on a non-ASCII character in %s, saying where', (_what, source, line, column) => {
    let error: unknown;
    try {
      asciiOnly(source, 'code.js', { sourceType: 'script' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'NON_ASCII_CODE', file: 'code.js', line, column });
  });
});

/**
 * esbuild gives every file of the CLI's bundle the banner that makes a `require`; a chunk that
 * never calls one had Node resolve and link `node:module` and run `createRequire` for nothing.
 */
describe("the CLI bundle's require banner", () => {
  it('is kept only where something may call require', () => {
    const body = 'export const x = 1;\n';
    expect(withoutUnusedRequire(`${REQUIRE_BANNER}\n${body}`, 'a.js')).toBe(`\n${body}`);
    const hashbang = '#!/usr/bin/env node\n';
    expect(withoutUnusedRequire(`${hashbang}${REQUIRE_BANNER}\n${body}`, 'a.js')).toBe(
      `${hashbang}\n${body}`,
    );
    const calls = `${REQUIRE_BANNER}\nvar __require = (x) => require(x);\n`;
    expect(withoutUnusedRequire(calls, 'b.js')).toBe(calls);
  });

  it("is in the chunks that call require and in no other of dist/cli's", () => {
    const chunks = readdirSync(CLI).filter((file) => /^cms-mirror.*\.js$/.test(file));
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) {
      const text = readFileSync(join(CLI, chunk), 'utf8');
      const rest = text.replace(REQUIRE_BANNER, '');
      expect(text.includes(REQUIRE_BANNER), chunk).toBe(/\brequire\b/.test(rest));
    }
    // The entry (commander) and undici's chunk do call it.
    const withBanner = chunks.filter((chunk) =>
      readFileSync(join(CLI, chunk), 'utf8').includes(REQUIRE_BANNER),
    );
    expect(withBanner).toContain('cms-mirror.js');
    expect(withBanner.length).toBeLessThan(chunks.length / 2);
  });
});
