import type { IncomingMessage } from 'node:http';
import { parseQueryString } from './query-string.js';
import { RestError } from './rest-error.js';
import type { Upload } from './route-types.js';

/**
 * Request bodies: JSON objects and form bodies become parameters; a multipart `file` part or
 * any other non-empty body becomes an upload (used by media creation).
 */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface ParsedBody {
  readonly params: Record<string, unknown> | undefined;
  readonly upload: Upload | undefined;
}

export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) {
      throw new RestError(413, 'rest_request_too_large', 'The request body is too large.');
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** `filename="x.png"` or RFC 5987 `filename*=UTF-8''x.png` from a Content-Disposition value. */
export function fileNameFromDisposition(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(value);
  if (extended) {
    try {
      return decodeURIComponent((extended[1] as string).trim());
    } catch {
      return (extended[1] as string).trim();
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(value);
  if (quoted) return (quoted[1] as string).replace(/\\(.)/g, '$1');
  const bare = /filename\s*=\s*([^;]+)/.exec(value);
  return bare ? (bare[1] as string).trim() : undefined;
}

function parseMultipart(bytes: Buffer, boundary: string): ParsedBody {
  const fields = new URLSearchParams();
  let upload: Upload | undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  let at = bytes.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (bytes.subarray(start, start + 2).toString() === '--') break;
    const next = bytes.indexOf(delimiter, start);
    if (next < 0) break;
    const part = bytes.subarray(start + 2, next - 2); // skip CRLF after delimiter and before next
    const split = part.indexOf('\r\n\r\n');
    if (split >= 0) {
      const headerText = part.subarray(0, split).toString('utf8');
      const content = part.subarray(split + 4);
      const headers = Object.fromEntries(
        headerText.split('\r\n').map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      const disposition = headers['content-disposition'] ?? '';
      const name = /name="([^"]*)"/.exec(disposition)?.[1];
      const filename = fileNameFromDisposition(disposition);
      if (filename !== undefined || name === 'file') {
        upload = { bytes: Buffer.from(content), filename, contentType: headers['content-type'] };
      } else if (name) {
        fields.append(name, content.toString('utf8'));
      }
    }
    at = next;
  }
  return { params: parseQueryString(fields.toString()), upload };
}

export function parseBody(
  bytes: Buffer,
  contentType: string | undefined,
  contentDisposition: string | undefined,
): ParsedBody {
  if (bytes.length === 0) return { params: undefined, upload: undefined };
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json' || type.endsWith('+json')) {
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      throw new RestError(400, 'rest_invalid_json', 'Invalid JSON body passed.', {
        json_error_code: 4,
        json_error_message: error instanceof Error ? error.message : 'Syntax error',
      });
    }
    const params =
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : {};
    return { params, upload: undefined };
  }
  if (type === 'application/x-www-form-urlencoded') {
    return { params: parseQueryString(bytes.toString('utf8')), upload: undefined };
  }
  if (type === 'multipart/form-data') {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
    if (!boundary)
      throw new RestError(400, 'rest_invalid_multipart', 'The multipart body has no boundary.');
    return parseMultipart(bytes, boundary);
  }
  return {
    params: undefined,
    upload: { bytes, filename: fileNameFromDisposition(contentDisposition), contentType },
  };
}
