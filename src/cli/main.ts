#!/usr/bin/env node
import { endQuietlyOnClosedPipe, runCli } from './run-cli.js';

endQuietlyOnClosedPipe(process.stdout, (code) => process.exit(code));
endQuietlyOnClosedPipe(process.stderr, (code) => process.exit(code));
process.exitCode = await runCli(process.argv.slice(2));
