import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Issue 15: what differs between collections is said once, in the registry
 * (src/collections.ts). No module of src/ spells a collection's name as a literal (`'posts'`),
 * its route (`cms/v2/posts`) or a list of the names (`/(posts|pages|media)/`), except the
 * registry, the reference site (a server of the interface, with its own data) and the released
 * schema upgrades (frozen history). Comments, help text and messages may name collections for
 * a reader: only names, routes and lists that code reads count.
 * The names are written out here, not taken from the registry, so a collection added there
 * is checked as well only when it is added here.
 */
const NAMES = ['posts', 'pages', 'media'];
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const ALLOWED = [/^collections\.ts$/, /^reference\//, /^store\/schema-upgrades\//];

function sourceFiles(dir: string, rel = ''): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((entry) => {
    const name = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(dir, name);
    return entry.name.endsWith('.ts') ? [name] : [];
  });
}

/** The text of every string, template and regular expression literal in a module. */
function literals(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateLiteralToken(node) ||
      ts.isRegularExpressionLiteral(node)
    ) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      found.push({ line: line + 1, text: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Why a literal names collections, or undefined. */
function collectionLiteral(text: string): string | undefined {
  if (NAMES.includes(text)) return 'a collection name';
  if (NAMES.some((name) => text.includes(`cms/v2/${name}`))) return 'a collection route';
  // Names joined by `|` or `,` (a regular expression, a default list); prose that names
  // collections for a reader ("posts, pages and media") is not a list the code reads.
  const name = `(?:${NAMES.join('|')})`;
  if (new RegExp(`\\b${name}\\s*[|,]\\S*\\b${name}\\b`).test(text))
    return 'a list of collection names';
  return undefined;
}

describe('collection names live in the registry only', () => {
  it('the check itself finds a name, a route and a list, and passes other words', () => {
    expect(collectionLiteral('posts')).toBe('a collection name');
    expect(collectionLiteral('/cms/v2/media/12')).toBe('a collection route');
    expect(collectionLiteral('^\\/(posts|pages)\\/\\d+$')).toBe('a list of collection names');
    expect(collectionLiteral('posters')).toBeUndefined();
    expect(collectionLiteral('posts,pages')).toBe('a list of collection names');
    expect(collectionLiteral('(?:image|gallery|media|file)')).toBeUndefined();
    expect(collectionLiteral('a role that may edit posts, pages and media')).toBeUndefined();
  });

  it('no module of src/ outside the registry, the reference site and schema upgrades', () => {
    const files = sourceFiles(SRC).filter((file) => !ALLOWED.some((rule) => rule.test(file)));
    expect(files.length).toBeGreaterThan(100);
    const offences = files.flatMap((file) =>
      literals(file, fs.readFileSync(path.join(SRC, file), 'utf8')).flatMap(({ line, text }) => {
        const why = collectionLiteral(text);
        return why === undefined ? [] : [`src/${file}:${line}: ${why}: ${JSON.stringify(text)}`];
      }),
    );
    expect(offences).toEqual([]);
  });
});
