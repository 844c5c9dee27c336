#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { endQuietlyOnClosedPipe, runCli } from './run-cli.js';

// undici parses HTTP with a WebAssembly build of llhttp. V8 compiles it at once with its
// baseline compiler (Liftoff), then recompiles the hot parser with TurboFan on a background
// thread, and Node waits for that compile before it exits: a no-op `run` spent 0.3–1 s after
// its last line in it on a loaded 2-core machine, and ~30 % of its CPU (test/bench/RESULTS.md,
// "no-op run: where the time went"). Parsing responses with the baseline code costs next to
// nothing at this client's request rates. Set before the first request compiles the module.
setFlagsFromString('--liftoff-only');

endQuietlyOnClosedPipe(process.stdout, (code) => process.exit(code));
endQuietlyOnClosedPipe(process.stderr, (code) => process.exit(code));
const code = await runCli(process.argv.slice(2));
// Every command is done when runCli returns (serve, watch and reference wait inside it), and
// its cache, connections and workers are closed. Ending here rather than when the event loop
// empties skips Node's teardown of the environment: a no-op `run` ended 100–280 ms after its
// last line without this, 35–60 ms with it (load ~10; test/bench/RESULTS.md, i-noop2). What
// was written to stdout and stderr is flushed first (pipes are asynchronous on some systems).
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);

function flushed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}
