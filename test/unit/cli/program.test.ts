import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/program.js';
import { runCli, type CliIo } from '../../../src/cli/run-cli.js';

/** The commands the README names, in the order `--help` lists them. */
const ALL = [
  'reference',
  'checkout',
  'push',
  'migrate',
  'watch',
  'pull',
  'status',
  'verify',
  'backup',
  'diff',
  'restore',
  'build',
  'run',
  'serve',
  'demo',
  'init',
];

function captureIo(): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (text: string) => ((out += text), true) } as unknown as CliIo['stdout'],
    stderr: { write: (text: string) => ((err += text), true) } as unknown as CliIo['stderr'],
    env: {},
    cwd: process.cwd(),
    exitCode: { value: 0 },
    out: () => out,
    err: () => err,
  };
}

const names = (argv: string[]): string[] =>
  buildProgram(captureIo(), argv).commands.map((command) => command.name());

describe('the command tree', () => {
  it('holds every command, in order, when argv names none', () => {
    for (const argv of [[], ['--help'], ['-V'], ['help', 'run'], ['rnu'], ['--json', 'run']]) {
      expect(names(argv), argv.join(' ')).toEqual(ALL);
    }
  });

  it.each(ALL)('holds %s alone when argv starts with it', (name) => {
    expect(names([name, '--json', '--lang', 'pl'])).toEqual([name]);
  });

  it.each(ALL)('prints the same help for "%s --help" as the whole tree does', async (name) => {
    const alone = captureIo();
    const whole = captureIo();
    expect(await runCli([name, '--help'], alone)).toBe(0);
    expect(await runCli(['help', name], whole)).toBe(0);
    expect(alone.out()).not.toBe('');
    expect(alone.out()).toBe(whole.out());
  });

  it('still suggests a command for a misspelt one', async () => {
    const io = captureIo();
    expect(await runCli(['rnu'], io)).toBe(2);
    expect(io.err()).toContain("unknown command 'rnu'");
    expect(io.err()).toContain('(Did you mean run?)');
  });

  it('refuses an unknown option of the one command as the whole tree does', async () => {
    const alone = captureIo();
    const whole = captureIo();
    const codeAlone = await runCli(['run', '--no-such-flag'], alone);
    const tree = buildProgram(whole, []);
    let codeWhole = 0;
    try {
      await tree.parseAsync(['run', '--no-such-flag'], { from: 'user' });
    } catch (error) {
      codeWhole = (error as { exitCode?: number }).exitCode ?? -1;
    }
    expect(codeAlone).not.toBe(0);
    expect(alone.err()).toContain("unknown option '--no-such-flag'");
    expect(alone.err()).toBe(whole.err());
    expect(codeWhole).not.toBe(0);
  });
});
