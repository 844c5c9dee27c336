/**
 * The part of undici that the CLI's bundle holds. The client imports the Agent alone
 * (`src/client/cms-client.ts`), but the Agent's modules still require, for cases the client
 * never makes, undici's HTTP/2 client (and through it Node's http2 and tls), the fetch body
 * code for FormData request bodies (with fetch's utilities, WebIDL, MIME and FormData
 * parsing: ~100 KB) and llhttp's second WebAssembly build, the one without SIMD (72 KB of
 * base64). Each run read, decoded and compiled them (test/bench/RESULTS.md, i-noop9).
 *
 * Each is named here with why the client cannot reach it, by the undici module that requires
 * it. The build fails if undici's layout changes: a stand-in no longer required where named,
 * or the set of undici's modules in the bundle not the one listed below (`checkUndiciModules`),
 * so an upgrade of undici is looked at before it is bundled.
 */
import path from 'node:path';

/**
 * Stand-ins for modules the client never reaches: each throws, saying why, if it ever is.
 * @type {ReadonlyArray<{ importer: string, request: string, why: string, contents: string }>}
 */
const LEFT_OUT = [
  {
    importer: 'lib/dispatcher/client.js',
    request: './client-h2.js',
    // undici's connector offers HTTP/2 by ALPN only with `allowH2`, and speaks it in clear
    // only with `useH2c`; the client's Agent sets neither, so every connection is HTTP/1.1.
    why: "undici's HTTP/2 client is left out of cms-mirror's bundle (its Agent never sets allowH2 or useH2c)",
    contents: 'module.exports = function connectH2() { throw new Error(WHY); };',
  },
  {
    importer: 'lib/dispatcher/client-h1.js',
    request: '../web/fetch/body.js',
    // Called only for a FormData body; the client's bodies are strings and bytes
    // (`CmsClient.request`: `string | Uint8Array`).
    why: "undici's FormData request bodies are left out of cms-mirror's bundle (the client sends strings and bytes)",
    contents: 'module.exports = { extractBody() { throw new Error(WHY); } };',
  },
];

/**
 * Modules kept out of the bundle but still used where needed: required from the installed
 * undici package on first use (a module of data alone, so a second instance is harmless).
 * @type {ReadonlyArray<{ importer: string, request: string, package: string }>}
 */
const ON_DEMAND = [
  {
    // llhttp without SIMD: compiled only where the SIMD build does not compile (or under Jest).
    importer: 'lib/dispatcher/client-h1.js',
    request: '../llhttp/llhttp-wasm.js',
    package: 'undici/lib/llhttp/llhttp-wasm.js',
  },
];

/** undici's modules in the bundle (relative to the package), for `checkUndiciModules`. */
export const UNDICI_MODULES = [
  'lib/core/connect.js',
  'lib/core/constants.js',
  'lib/core/diagnostics.js',
  'lib/core/errors.js',
  'lib/core/request.js',
  'lib/core/symbols.js',
  'lib/core/tree.js',
  'lib/core/util.js',
  'lib/dispatcher/agent.js',
  'lib/dispatcher/client-h1.js',
  'lib/dispatcher/client.js',
  'lib/dispatcher/dispatcher-base.js',
  'lib/dispatcher/dispatcher.js',
  'lib/dispatcher/fixed-queue.js',
  'lib/dispatcher/pool-base.js',
  'lib/dispatcher/pool.js',
  'lib/handler/unwrap-handler.js',
  'lib/handler/wrap-handler.js',
  'lib/llhttp/constants.js',
  'lib/llhttp/llhttp_simd-wasm.js',
  'lib/llhttp/utils.js',
  'lib/util/stats.js',
  'lib/util/timers.js',
];

const NAMESPACE = 'cms-mirror-undici-left-out';

/** A layout check failed: undici is not what the stand-ins were written for. */
export class UndiciLayoutError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(`${message}: check scripts/undici-parts.mjs against this undici`);
    this.name = 'UndiciLayoutError';
    this.code = 'UNDICI_LAYOUT';
  }
}

/**
 * An esbuild plugin that gives each `LEFT_OUT` module its stand-in and leaves each `ON_DEMAND`
 * one to be required at run time; the build fails if any of them is not required where named.
 * @param {string} undiciRoot the installed package's directory
 */
export function undiciParts(undiciRoot) {
  const entries = [
    ...LEFT_OUT.map((entry) => ({ ...entry, kind: 'left-out' })),
    ...ON_DEMAND.map((entry) => ({ ...entry, kind: 'on-demand' })),
  ];
  const used = new Set();
  const requests = new RegExp(`^(${entries.map((entry) => escape(entry.request)).join('|')})$`);
  const fromPackage = (file) => path.relative(undiciRoot, file).split(path.sep).join('/');
  return {
    name: 'undici-parts',
    setup(bundle) {
      bundle.onEnd((result) => {
        if (result.errors.length > 0) return;
        const unused = entries.filter((entry) => !used.has(entry));
        if (unused.length > 0) {
          const names = unused.map((entry) => `${entry.importer} -> ${entry.request}`).join(', ');
          throw new UndiciLayoutError(`not required where named: ${names}`);
        }
      });
      bundle.onResolve({ filter: requests }, (args) => {
        const importer = fromPackage(args.importer);
        const entry = entries.find((e) => e.importer === importer && e.request === args.path);
        if (entry === undefined) return undefined;
        used.add(entry);
        if (entry.kind === 'on-demand') return { path: entry.package, external: true };
        return { path: `${importer}:${entry.request}`, namespace: NAMESPACE };
      });
      bundle.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const entry = LEFT_OUT.find((e) => `${e.importer}:${e.request}` === args.path);
        if (entry === undefined) throw new UndiciLayoutError(`no stand-in for ${args.path}`);
        return {
          contents: `const WHY = ${JSON.stringify(entry.why)};\n${entry.contents}\n`,
          loader: 'js',
        };
      });
    },
  };
}

/**
 * Fails unless the bundle's undici modules are exactly `UNDICI_MODULES`.
 * @param {import('esbuild').Metafile} metafile
 * @param {string} undiciRoot
 */
export function checkUndiciModules(metafile, undiciRoot) {
  const bundled = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const file = path.resolve(input);
      if (bytesInOutput > 0 && file.startsWith(undiciRoot + path.sep)) {
        bundled.add(path.relative(undiciRoot, file).split(path.sep).join('/'));
      }
    }
  }
  const expected = new Set(UNDICI_MODULES);
  const added = [...bundled].filter((name) => !expected.has(name)).sort();
  const gone = [...expected].filter((name) => !bundled.has(name)).sort();
  if (added.length > 0 || gone.length > 0) {
    throw new UndiciLayoutError(
      `undici's modules in the bundle changed (added: ${added.join(', ') || 'none'}; gone: ${gone.join(', ') || 'none'})`,
    );
  }
}

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
