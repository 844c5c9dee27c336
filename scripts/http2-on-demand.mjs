/**
 * What the bundled CLI gives undici's HTTP/2 client (`undici/lib/dispatcher/client-h2.js`) in
 * place of `node:http2` (scripts/bundle-cli.mjs). undici requires `node:http2` when that module
 * is evaluated, and Node's http2 loads tls with it: 8–17 ms of every start's CPU for a client
 * that speaks HTTP/1.1 only (no `allowH2`: undici opens an HTTP/2 session only when asked to).
 * The constants undici reads as it loads are copied here (the bundle script checks them against
 * Node's when it builds); the real module is loaded if a connection ever is HTTP/2.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const constants = {
  HTTP2_HEADER_AUTHORITY: ':authority',
  HTTP2_HEADER_METHOD: ':method',
  HTTP2_HEADER_PATH: ':path',
  HTTP2_HEADER_SCHEME: ':scheme',
  HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
  HTTP2_HEADER_EXPECT: 'expect',
  HTTP2_HEADER_STATUS: ':status',
  HTTP2_HEADER_PROTOCOL: ':protocol',
  NGHTTP2_REFUSED_STREAM: 7,
  NGHTTP2_CANCEL: 8,
};

export function connect(...args) {
  return require('node:http2').connect(...args);
}
