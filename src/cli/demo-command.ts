import { Command } from 'commander';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startReferenceProcess } from './reference-process.js';
import type { CliIo } from './run-cli.js';
import { pipelineOption } from './shared-options.js';

const DEMO_PIPELINE = fileURLToPath(new URL('../../pipelines/demo.yaml', import.meta.url));

/**
 * `npm start`: the whole pipeline against the embedded reference site, started as a separate
 * process on a free port, so a new user sees a real site built in one command.
 */
export function demoCommand(io: CliIo): Command {
  const command = new Command('demo').description(
    'start the reference site, pull pl and es, build output/pl and output/es, stop',
  );
  return pipelineOption(command, 'pipeline file to take paths from', DEMO_PIPELINE).action(
    async (flags: { pipeline: string }) => {
      const [{ resolveSettings, run }, { createProgressReporter }] = await Promise.all([
        import('../index.js'),
        import('./progress.js'),
      ]);
      // Content refers to media and items the ways deployed sites' content does.
      const reference = await startReferenceProcess(['--url-variants']);
      try {
        io.stderr.write(`Reference site running at ${reference.url}\n`);
        const settings = resolveSettings(
          { pipeline: flags.pipeline, site: reference.url, lang: 'pl,es' },
          {
            ...io.env,
            CMS_USER: reference.credentials.user,
            CMS_APP_PASSWORD: reference.credentials.password,
          },
          io.cwd,
        );
        // The reference site runs on a new port each time, so its links change: start the
        // demo cache afresh instead of mirroring the old port's URLs.
        for (const suffix of ['', '-wal', '-shm'])
          rmSync(`${settings.cache}${suffix}`, { force: true });
        const progress = await createProgressReporter(io.stderr);
        let built;
        try {
          ({ build: built } = await run({
            settings,
            force: true,
            onProgress: progress.onProgress,
            onPulled: () => progress.stop(),
            onLine: (line) => io.stderr.write(`build ${line}\n`),
          }));
        } finally {
          progress.stop();
        }
        io.stdout.write('\nBuilt the demo site:\n');
        for (const result of Object.values(built.languages)) io.stdout.write(`  ${result.index}\n`);
        io.stdout.write(
          `\nLook at it with: npx cms-mirror serve --out ${settings.output}   (then open http://127.0.0.1:8080/pl/)\n`,
        );
      } finally {
        await reference.stop();
      }
    },
  );
}
