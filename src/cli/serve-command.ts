import { Command } from 'commander';
import type { CommonFlags } from '../index.js';
import { port } from './option-parsers.js';
import type { CliIo } from './run-cli.js';
import { outOption, pipelineOption } from './shared-options.js';

interface ServeFlags extends CommonFlags {
  port: number;
  host: string;
}

export function serveCommand(io: CliIo): Command {
  const command = new Command('serve').description(
    'serve the built sites on 127.0.0.1 to look at them (output/pl, output/es, ...)',
  );
  return outOption(
    pipelineOption(command),
    'output directory (default: the pipeline\'s, else "output")',
  )
    .option('--port <n>', 'port to listen on (0 picks a free one)', port, 8080)
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .action(async (flags: ServeFlags) => {
      const { resolveSettings, serve } = await import('../index.js');
      const settings = resolveSettings(flags, io.env, io.cwd);
      const server = await serve({ settings, host: flags.host, port: flags.port });
      io.stdout.write(`Serving ${settings.output} at ${server.url}/ — Ctrl+C to stop.\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await server.close();
    });
}
