/**
 * A reader for the plain YAML a pipeline file is usually written in (what `cms-mirror init`
 * writes, and hand-written files like it): comments, top-level keys, one level of nested
 * mappings or `- item` lists, flow lists (`[pl, es]`), and scalars whose type no YAML schema
 * could read differently. Anything else — anchors, tags, block scalars, multi-line strings,
 * `yes`/`null`/`0x1F`/`1e3`, deeper nesting, duplicate keys — is not read here: the caller
 * hands the text to the `yaml` package, so this reader never gives a value that package would
 * not. Why: loading that package (~260 KB) took ~35 ms of a no-op `run`'s CPU for a file of a
 * few lines (test/bench/RESULTS.md, i-noop6).
 */

/** The document's value (null when it holds only comments), or undefined: not plain enough. */
export function readPlainYaml(text: string): { value: Record<string, unknown> | null } | undefined {
  if (hasUnusualCharacter(text)) return undefined;
  const root: Record<string, unknown> = {};
  let block: OpenBlock | undefined;
  for (const line of text.split('\n')) {
    const content = line.trimEnd();
    const indent = content.length - content.trimStart().length;
    if (content.length === 0 || content[indent] === '#') continue;
    if (indent === 0) {
      if (block && !closeBlock(block, root)) return undefined;
      block = undefined;
      const entry = keyValue(content);
      if (!entry || Object.hasOwn(root, entry.key)) return undefined;
      if (entry.rest === '') {
        block = { key: entry.key, indent: undefined, map: undefined, list: undefined };
        continue;
      }
      const value = flowValue(entry.rest);
      if (!value) return undefined;
      root[entry.key] = value.value;
    } else {
      if (!block || !addToBlock(block, content, indent)) return undefined;
    }
  }
  if (block && !closeBlock(block, root)) return undefined;
  return { value: Object.keys(root).length === 0 ? null : root };
}

/** Tabs, carriage returns, a byte-order mark, control characters: left to the package. */
function hasUnusualCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f) || code === 0xfeff)
      return true;
  }
  return false;
}

interface OpenBlock {
  readonly key: string;
  indent: number | undefined;
  map: Record<string, unknown> | undefined;
  list: unknown[] | undefined;
}

function addToBlock(block: OpenBlock, content: string, indent: number): boolean {
  block.indent ??= indent;
  if (indent !== block.indent) return false;
  const item = content.slice(indent);
  if (item.startsWith('- ')) {
    if (block.map) return false;
    const value = scalarWithComment(item.slice(2).trimStart());
    if (!value) return false;
    (block.list ??= []).push(value.value);
    return true;
  }
  if (block.list) return false;
  const entry = keyValue(item);
  if (!entry || entry.rest === '') return false;
  const map = (block.map ??= {});
  if (Object.hasOwn(map, entry.key)) return false;
  const value = flowValue(entry.rest);
  if (!value) return false;
  map[entry.key] = value.value;
  return true;
}

/** A key with nothing under it is null in YAML: left to the package. */
function closeBlock(block: OpenBlock, root: Record<string, unknown>): boolean {
  const value = block.map ?? block.list;
  if (value === undefined) return false;
  root[block.key] = value;
  return true;
}

const KEY = /^([A-Za-z_][A-Za-z0-9_]*):(?: +(.*))?$/;

/** Words some YAML schema reads as a boolean or null, in any case. */
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i;

function keyValue(content: string): { key: string; rest: string } | undefined {
  const match = KEY.exec(content);
  if (!match) return undefined;
  const key = match[1] as string;
  if (RESERVED.test(key)) return undefined;
  return { key, rest: match[2] ?? '' };
}

/** A scalar or a flow list, then an optional comment. */
function flowValue(rest: string): { value: unknown } | undefined {
  if (!rest.startsWith('[')) return scalarWithComment(rest);
  const close = rest.indexOf(']');
  if (close < 0 || !isComment(rest.slice(close + 1))) return undefined;
  const inner = rest.slice(1, close).trim();
  if (inner === '') return { value: [] };
  const items: unknown[] = [];
  for (const part of inner.split(',')) {
    const token = part.trim();
    // In a flow list a colon may start a mapping: left to the package.
    if (token.includes(':') || token.startsWith('"') || token.startsWith("'")) return undefined;
    const value = scalar(token);
    if (!value) return undefined;
    items.push(value.value);
  }
  return { value: items };
}

function scalarWithComment(rest: string): { value: unknown } | undefined {
  const quote = rest[0];
  if (quote === '"' || quote === "'") {
    const end = quotedEnd(rest, quote);
    if (end < 0 || !isComment(rest.slice(end))) return undefined;
    return scalar(rest.slice(0, end));
  }
  const comment = rest.search(/ +#/);
  return scalar(comment < 0 ? rest : rest.slice(0, comment));
}

/** Index just past the closing quote (`''` and `\"` do not close), or -1. */
function quotedEnd(rest: string, quote: string): number {
  for (let i = 1; i < rest.length; i++) {
    const char = rest[i];
    if (quote === '"' && char === '\\') i++;
    else if (char === quote) {
      if (quote === "'" && rest[i + 1] === "'") i++;
      else return i + 1;
    }
  }
  return -1;
}

function isComment(rest: string): boolean {
  return rest === '' || /^ +#/.test(rest) || /^ +$/.test(rest);
}

// JSON's string escapes, which mean the same in a YAML double-quoted scalar; no lone surrogate
// (control characters never get here: `hasUnusualCharacter`).
const DOUBLE_QUOTED = /^"(?:[^"\\]|\\["\\/bfnrt]|\\u(?![dD][89a-fA-F])[0-9a-fA-F]{4})*"$/;
const SINGLE_QUOTED = /^'(?:[^']|'')*'$/;
const INTEGER = /^(?:0|-?[1-9][0-9]{0,14})$/;
const DECIMAL = /^-?(?:0|[1-9][0-9]{0,14})\.[0-9]{1,15}$/;
// Starts with a letter, `_`, `/`, `./` or `../` (not a digit, a sign or a dot: numbers,
// `.inf`); no space, quote, `#`, `,`, brackets, `&`, `*`, `!`, `|`, `>`, `%`, `@` or `~`.
const PLAIN = /^(?:[A-Za-z_/]|\.\.?\/)[A-Za-z0-9_./:+=-]*$/;

function scalar(token: string): { value: unknown } | undefined {
  if (DOUBLE_QUOTED.test(token)) return { value: JSON.parse(token) as string };
  if (SINGLE_QUOTED.test(token)) return { value: token.slice(1, -1).replace(/''/g, "'") };
  if (INTEGER.test(token) || DECIMAL.test(token)) return { value: Number(token) };
  if (token === 'true' || token === 'false') return { value: token === 'true' };
  if (!PLAIN.test(token) || RESERVED.test(token) || token.endsWith(':')) return undefined;
  return { value: token };
}
