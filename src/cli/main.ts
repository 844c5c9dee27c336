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
process.exitCode = await runCli(process.argv.slice(2));
