import path from 'node:path';
import { parseDocument, stringify, isMap, isScalar, type Document } from 'yaml';
import {
  CHECKOUT_TYPES,
  checkoutFields,
  isCheckoutType,
  type CheckoutType,
} from '../collections.js';
import { InputError, UnsafePathError } from '../errors.js';

/**
 * One checked-out item as a file: YAML front matter between `---` lines, then the HTML body.
 * Pure: text in, text out. Reading and writing files is the checkout runner's job.
 */

/** The collections `checkout` writes files for (the registry's `checkout`). */
export type { CheckoutType } from '../collections.js';
export { CHECKOUT_TYPES } from '../collections.js';

/** Front matter keys that identify the item. They are never sent back to the site. */
export const MARKER_FIELDS = ['id', 'type', 'lang'] as const;

/**
 * Editable front matter fields per type, in the order they are written (the registry's
 * `checkout.fields`). Only fields the type has on the site (the spec: pages have no
 * format/sticky/categories/tags, posts no parent/menu_order).
 */
export const EDITABLE_FIELDS: Readonly<Record<CheckoutType, readonly string[]>> =
  Object.fromEntries(CHECKOUT_TYPES.map((type) => [type, checkoutFields(type)])) as Record<
    CheckoutType,
    readonly string[]
  >;

/** Fields of a checkout: front matter values plus `content` (the HTML body). */
export type EditableFields = Record<string, unknown>;

export interface CheckoutDocument {
  /** Undefined for a new item (a file without `id`). */
  readonly id: number | undefined;
  readonly type: CheckoutType;
  readonly lang: string;
  /** Front matter fields (only those present) and `content`. */
  readonly fields: EditableFields;
}

/**
 * The editable fields of a cached item: raw values when the cache holds `context=edit` data,
 * else the rendered ones (all a view-context cache has). `date` stands in for a null `date_gmt`
 * (drafts on real sites have no GMT date until published).
 */
export function fieldsFromItem(
  item: Readonly<Record<string, unknown>>,
  type: CheckoutType,
): EditableFields {
  const fields: EditableFields = {};
  for (const name of EDITABLE_FIELDS[type]) {
    if (name === 'title' || name === 'excerpt') {
      const value = textOf(item[name]);
      if (value !== undefined) fields[name] = value;
      continue;
    }
    if (name === 'date_gmt') {
      if (typeof item.date_gmt === 'string') fields.date_gmt = item.date_gmt;
      else if (typeof item.date === 'string') fields.date = item.date;
      continue;
    }
    if (item[name] !== undefined) fields[name] = item[name];
  }
  fields.content = textOf(item.content) ?? '';
  return fields;
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const { raw, rendered } = value as { raw?: unknown; rendered?: unknown };
  if (typeof raw === 'string') return raw;
  if (typeof rendered === 'string') return rendered;
  return undefined;
}

/** The file text for a document: markers first, editable fields in their fixed order, then the body. */
export function serializeCheckout(doc: CheckoutDocument): string {
  const front: Record<string, unknown> = {};
  if (doc.id !== undefined) front.id = doc.id;
  front.type = doc.type;
  front.lang = doc.lang;
  for (const name of [...EDITABLE_FIELDS[doc.type], 'date']) {
    if (doc.fields[name] !== undefined) front[name] = doc.fields[name];
  }
  const body = typeof doc.fields.content === 'string' ? doc.fields.content : '';
  // The trailing newline keeps editors from "changing" the body by adding one; parse strips it.
  return `---\n${stringify(front, { lineWidth: 0 })}---\n${body}\n`;
}

/**
 * Parses a checkout file. `expected` (from the file's place under the checkout dir) fills in
 * `type`/`lang` for new files and must agree with the markers when they are present.
 * @throws InputError naming the file and the field or line.
 */
export function parseCheckout(
  text: string,
  file: string,
  expected: { type?: CheckoutType; lang?: string } = {},
): CheckoutDocument {
  const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)^---[ \t]*(?:\r?\n|$)/m.exec(text);
  if (!match || match.index !== 0) {
    throw new InputError(
      file,
      `${file}: no front matter (the file must start with a "---" line and have a closing "---" line)`,
    );
  }
  const yamlText = match[1] ?? '';
  const body = stripOneNewline(text.slice(match[0].length));
  const doc = parseDocument(yamlText, { prettyErrors: false });
  const first = doc.errors[0];
  if (first) {
    // +1: the opening "---" line is not part of the YAML text.
    const line = (first.linePos?.[0]?.line ?? 1) + 1;
    throw new InputError(
      file,
      `${file}:${line}: invalid front matter: ${first.message.split('\n')[0]}`,
    );
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new InputError(file, `${file}:2: front matter must be a mapping of field: value`);
  }
  const data = (doc.toJS() ?? {}) as Record<string, unknown>;
  const fail = (field: string, message: string): never => {
    throw new InputError(
      file,
      `${file}:${lineOf(doc, yamlText, field)}: field "${field}" ${message}`,
    );
  };

  const type = data.type ?? expected.type;
  if (!isCheckoutType(type))
    fail(
      'type',
      `must be ${CHECKOUT_TYPES.map((name) => `"${name}"`).join(' or ')}, got ${show(type)}`,
    );
  if (expected.type !== undefined && data.type !== undefined && data.type !== expected.type) {
    fail('type', `is "${String(data.type)}" but the file is under ${expected.type}/`);
  }
  const lang = data.lang ?? expected.lang;
  if (typeof lang !== 'string' || !LANG.test(lang))
    fail('lang', `must be a language segment such as "pl", got ${show(lang)}`);
  if (expected.lang !== undefined && data.lang !== undefined && data.lang !== expected.lang) {
    fail('lang', `is "${String(data.lang)}" but the file is under ${expected.lang}/`);
  }
  const id = data.id;
  if (id !== undefined && !(typeof id === 'number' && Number.isInteger(id) && id > 0)) {
    fail('id', `must be a positive whole number (or absent for a new item), got ${show(id)}`);
  }
  const checkoutType = type as CheckoutType;
  const allowed = new Set([...EDITABLE_FIELDS[checkoutType], 'date']);
  const fields: EditableFields = {};
  for (const [key, value] of Object.entries(data)) {
    if ((MARKER_FIELDS as readonly string[]).includes(key)) continue;
    if (!allowed.has(key)) {
      fail(
        key,
        `is not an editable field of ${checkoutType} (allowed: ${[...allowed].join(', ')})`,
      );
    }
    fields[key] = value;
  }
  fields.content = body;
  return { id: id as number | undefined, type: checkoutType, lang: lang as string, fields };
}

const LANG = /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i;

function stripOneNewline(body: string): string {
  if (body.endsWith('\r\n')) return body.slice(0, -2);
  if (body.endsWith('\n')) return body.slice(0, -1);
  return body;
}

function show(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

/** 1-based line of `key` in the file (the YAML starts on line 2). */
function lineOf(doc: Document, yamlText: string, key: string): number {
  if (isMap(doc.contents)) {
    for (const pair of doc.contents.items) {
      if (isScalar(pair.key) && pair.key.value === key && pair.key.range) {
        return yamlText.slice(0, pair.key.range[0]).split('\n').length + 1;
      }
    }
  }
  return 2;
}

/** Longest file-name part we make from a slug, in UTF-8 bytes (file systems allow 255). */
export const MAX_SLUG_BYTES = 100;

/**
 * A slug as a safe file-name part: percent-decoded (non-Latin slugs arrive encoded), letters
 * and digits of any script kept, everything else (separators, dots, control characters) a
 * hyphen, bounded to {@link MAX_SLUG_BYTES}. Never empty, never `.`/`..`.
 */
export function fileSafeSlug(slug: string): string {
  let decoded = slug;
  try {
    decoded = decodeURIComponent(slug);
  } catch {
    // Not valid percent-encoding: use it as it is.
  }
  const cleaned = decoded
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}_-]+/gu, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
  let bounded = '';
  let bytes = 0;
  for (const char of cleaned) {
    const size = Buffer.byteLength(char);
    if (bytes + size > MAX_SLUG_BYTES) break;
    bounded += char;
    bytes += size;
  }
  bounded = bounded.replace(/-$/, '');
  return bounded === '' ? 'item' : bounded;
}

/**
 * `{dir}/{lang}/{type}/{id}-{slug}.html`, verified to stay inside `dir`.
 * @throws UnsafePathError when the language segment is not a language code.
 */
export function checkoutPath(
  dir: string,
  item: { lang: string; type: CheckoutType; id: number; slug: string },
): string {
  if (!LANG.test(item.lang)) {
    throw new UnsafePathError(
      item.lang,
      `language "${item.lang}" is not a language segment; refusing to use it in a path`,
    );
  }
  const root = path.resolve(dir);
  const file = path.resolve(
    root,
    item.lang,
    item.type,
    `${item.id}-${fileSafeSlug(item.slug)}.html`,
  );
  assertInside(root, file);
  return file;
}

/** @throws UnsafePathError when `file` is not strictly inside `root`. */
export function assertInside(root: string, file: string): void {
  const relative = path.relative(path.resolve(root), path.resolve(file));
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new UnsafePathError(file, `${file} is outside ${root}`);
  }
}

/**
 * Where a checkout file sits: `{lang}/{type}/...html` under `dir`. Undefined for files that
 * are not item files (other folders, other extensions).
 */
export function locateCheckoutFile(
  dir: string,
  file: string,
): { lang: string; type: CheckoutType } | undefined {
  const relative = path.relative(path.resolve(dir), path.resolve(file));
  if (relative.startsWith('..') || path.isAbsolute(relative) || !relative.endsWith('.html'))
    return undefined;
  const [lang, type, ...rest] = relative.split(path.sep);
  if (lang === undefined || type === undefined || rest.length !== 1) return undefined;
  if (!LANG.test(lang) || !isCheckoutType(type)) return undefined;
  return { lang, type };
}
