/**
 * A trace of the steps that change a language's output, for the crash tests: with
 * `CMS_MIRROR_BUILD_TRACE` naming a file, every step (a file staged, the switch committed, a
 * file switched...) appends one line to it before the build goes on; with
 * `CMS_MIRROR_BUILD_PAUSE="{step}#{n}"` as well (`switch pl#3`), the process stops for a
 * minute right after the n-th line that starts with `{step}`, so that a test can SIGKILL it at
 * exactly that step, whatever the machine's load.
 * Without them every step is a call of a function that does nothing. The environment is the
 * seam for a child process (the crash tests); a library caller passes its own hook instead
 * (`build({ trace })`, `runBuild(..., { trace })`, `buildFromModel(..., { trace })`).
 */
import fs from 'node:fs';

export type BuildTrace = (step: string) => void;

const noTrace: BuildTrace = () => undefined;

/** The longest pause (ms): a test that does not kill the process lets it go on after it. */
const PAUSE_MS = 60_000;

/** The trace the environment asks for (read once per call: no state between builds). */
export function traceFromEnvironment(env: NodeJS.ProcessEnv = process.env): BuildTrace {
  const file = env['CMS_MIRROR_BUILD_TRACE'];
  if (!file) return noTrace;
  const pause = /^(.+)#(\d+)$/.exec(env['CMS_MIRROR_BUILD_PAUSE'] ?? '');
  const prefix = pause?.[1] ?? '';
  const count = Number(pause?.[2] ?? 0);
  return (step) => {
    fs.appendFileSync(file, `${step}\n`);
    if (!pause || !step.startsWith(prefix)) return;
    // Counted from the file, which holds the steps of every call in this process.
    const seen = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith(prefix)).length;
    if (seen === count) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, PAUSE_MS);
  };
}
