/**
 * Reading a response body that should be JSON, and telling apart the ways it can fail: a body
 * cut short (retry it), a body that is simply something else (HTML, PHP notices: do not), a
 * compressed body the client never asked for, a body nested too deep to process safely.
 */
import { MAX_BODY_DEPTH, mayNestDeeperThan, nestsDeeperThan } from './json-depth.js';

export type JsonBodyResult =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly reason: 'not-utf8' | 'not-json' | 'malformed' | 'encoded' | 'too-deep';
      readonly detail: string;
    };

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Whether a `Content-Type` names JSON (`application/json`, `application/problem+json`, ...). */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const essence = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return essence === 'application/json' || essence.endsWith('+json') || essence === 'text/json';
}

/**
 * Decodes and parses `body`. `malformed` means "looks like JSON that was cut": the content type
 * says JSON (or says nothing) and the text does not parse, or the only bad UTF-8 is a split
 * character at the very end. Anything else that fails is `not-json` / `not-utf8`.
 */
export function parseJsonBody(
  body: Uint8Array,
  contentType: string | undefined,
  contentEncoding?: string,
): JsonBodyResult {
  const encoded = encodingOf(body, contentEncoding);
  if (encoded !== undefined) return { ok: false, reason: 'encoded', detail: encoded };
  const declaredOther =
    contentType !== undefined && contentType !== '' && !isJsonContentType(contentType);
  let text: string;
  try {
    text = decoder.decode(body);
  } catch {
    if (!declaredOther && endsWithSplitCharacter(body)) {
      return {
        ok: false,
        reason: 'malformed',
        detail: 'the body ends inside a UTF-8 character (cut short)',
      };
    }
    return { ok: false, reason: 'not-utf8', detail: 'the body is not valid UTF-8' };
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (mayNestDeeperThan(text, MAX_BODY_DEPTH) && nestsDeeperThan(value, MAX_BODY_DEPTH)) {
      return {
        ok: false,
        reason: 'too-deep',
        detail: `the JSON body nests deeper than ${MAX_BODY_DEPTH} levels: refused, it cannot be processed safely`,
      };
    }
    return { ok: true, value };
  } catch (error) {
    const what = (error as Error).message;
    if (declaredOther) {
      return {
        ok: false,
        reason: 'not-json',
        detail: `expected JSON, got ${contentType.split(';')[0]?.trim()} starting with ${JSON.stringify(text.slice(0, 40))}`,
      };
    }
    if (text.trim() === '') {
      return { ok: false, reason: 'malformed', detail: 'expected JSON, got an empty body' };
    }
    return {
      ok: false,
      reason: 'malformed',
      detail: `the JSON body is malformed or cut short (${what})`,
    };
  }
}

/** True when the body decodes once up to 3 trailing bytes (a split code point) are dropped. */
function endsWithSplitCharacter(body: Uint8Array): boolean {
  for (let drop = 1; drop <= 3 && drop <= body.length; drop += 1) {
    try {
      decoder.decode(body.subarray(0, body.length - drop));
      return true;
    } catch {
      // try dropping one more byte
    }
  }
  return false;
}

/** Magic numbers of compressed formats a server may send without saying so. */
const MAGIC: readonly [string, readonly number[]][] = [
  ['gzip', [0x1f, 0x8b]],
  ['zstd', [0x28, 0xb5, 0x2f, 0xfd]],
];

/**
 * What to say about a compressed body the client did not ask for (it sends no
 * `Accept-Encoding`), or undefined when the body is not one: a `Content-Encoding` other than
 * identity, or gzip/zstd bytes without the header.
 */
function encodingOf(body: Uint8Array, contentEncoding: string | undefined): string | undefined {
  const declared = contentEncoding?.trim().toLowerCase();
  if (declared !== undefined && declared !== '' && declared !== 'identity') {
    return `the body is compressed (Content-Encoding: ${declared.slice(0, 40)}) though the client did not ask for compression`;
  }
  for (const [name, magic] of MAGIC) {
    if (body.length >= magic.length && magic.every((byte, i) => body[i] === byte)) {
      return `the body is ${name}-compressed data without a Content-Encoding header`;
    }
  }
  return undefined;
}
