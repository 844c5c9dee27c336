/**
 * A bundle's text made ASCII. V8 keeps a script's source as one byte a character only if every
 * character is Latin-1; one character past it (an emoji in p-queue's JSDoc, a dash in a regex)
 * makes the whole chunk two bytes a character, decoded and scanned as such on every start
 * (test/bench/RESULTS.md, i-noop8 and i-noop9). esbuild escapes strings, templates and names
 * (its default `charset: 'ascii'`) but leaves comments and regular expression literals as
 * written; those are escaped here, the rest checked. A tokenizer tells them apart: a `/` or a
 * quote means something else in each.
 */
import { parse } from 'acorn';

/** A non-ASCII character in code that cannot be escaped without changing what it means. */
export class NonAsciiCodeError extends Error {
  /**
   * @param {string} file
   * @param {number} line
   * @param {number} column
   * @param {string} character
   */
  constructor(file, line, column, character) {
    const code = character.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0');
    super(`${file}:${line}:${column}: U+${code} outside a comment or a regular expression`);
    this.name = 'NonAsciiCodeError';
    this.code = 'NON_ASCII_CODE';
    this.file = file;
    this.line = line;
    this.column = column;
  }
}

const NON_ASCII = /[^\0-\x7f]/;
const NON_ASCII_ALL = /[^\0-\x7f]/g;

/**
 * `source` with every non-ASCII character of its comments and regular expression literals
 * escaped. A comment gets `\uXXXX` as text (its meaning is none), except a line or paragraph
 * separator in a block comment, which becomes `\n` so the comment still ends a line for
 * semicolon insertion. A regular expression gets `\uXXXX` per UTF-16 unit, which matches the
 * same with or without the `u` or `v` flag (a surrogate pair of escapes is one code point
 * under either); an identity escape of such a character (`\…`, non-`u` only) becomes the
 * escape alone.
 *
 * @param {string} source an ES module (or a script, with `sourceType: 'script'`)
 * @param {string} file named in errors
 * @param {{ sourceType?: 'module' | 'script' }} [options]
 * @returns {string}
 * @throws {NonAsciiCodeError} for a non-ASCII character anywhere else
 */
export function asciiOnly(source, file, options = {}) {
  if (!NON_ASCII.test(source)) return source;
  /** @type {Array<{ start: number, end: number, text: string }>} */
  const edits = [];
  parse(source, {
    ecmaVersion: 'latest',
    sourceType: options.sourceType ?? 'module',
    allowHashBang: true,
    onComment(block, text, start, end) {
      if (!NON_ASCII.test(text)) return;
      // After `//` or `/*` (or a hashbang's `#!`), before a block's `*/`.
      edits.push({
        start: start + 2,
        end: end - (block ? 2 : 0),
        text: escapeComment(text, block),
      });
    },
    onToken(token) {
      if (token.type.label !== 'regexp') return;
      const literal = source.slice(token.start, token.end);
      if (!NON_ASCII.test(literal)) return;
      const { flags } = /** @type {{ flags: string }} */ (token.value);
      const patternEnd = token.end - flags.length - 1;
      const pattern = escapePattern(source.slice(token.start + 1, patternEnd));
      edits.push({ start: token.start + 1, end: patternEnd, text: pattern });
    },
  });
  const escaped = applyEdits(source, edits);
  const left = NON_ASCII.exec(escaped);
  if (left) throw nonAsciiError(escaped, left.index, file);
  return escaped;
}

/** @param {string} text @param {boolean} block */
function escapeComment(text, block) {
  return text.replace(NON_ASCII_ALL, (character) =>
    block && (character === '\u2028' || character === '\u2029') ? '\n' : unitEscapes(character),
  );
}

/** A pattern's source with its non-ASCII characters as `\uXXXX`, identity escapes included. */
function escapePattern(pattern) {
  let out = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const unit = pattern[i];
    if (unit === '\\') {
      const next = String.fromCodePoint(pattern.codePointAt(i + 1) ?? 0);
      if (i + 1 < pattern.length && NON_ASCII.test(next)) {
        out += unitEscapes(next);
        i += next.length;
      } else {
        out += pattern.slice(i, i + 2);
        i += 1;
      }
    } else {
      out += NON_ASCII.test(unit) ? unitEscapes(unit) : unit;
    }
  }
  return out;
}

/** @param {string} text every UTF-16 unit of `text` as `\uXXXX` */
function unitEscapes(text) {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    out += `\\u${text.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return out;
}

/** @param {string} source @param {Array<{ start: number, end: number, text: string }>} edits */
function applyEdits(source, edits) {
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const edit of edits) {
    out += source.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + source.slice(at);
}

/** @param {string} text @param {number} index @param {string} file */
function nonAsciiError(text, index, file) {
  const before = text.slice(0, index).split('\n');
  const line = before.length;
  const column = (before.at(-1) ?? '').length + 1;
  return new NonAsciiCodeError(
    file,
    line,
    column,
    String.fromCodePoint(text.codePointAt(index) ?? 0),
  );
}
