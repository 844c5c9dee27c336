import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../helpers/run-cli.js';

describe('the command-line frame', () => {
  it('prints help for the program and for each command, exit 0', async () => {
    const top = await runCliCaptured(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('Usage: cms-mirror');
    expect(top.stdout).toContain('reference');
    const sub = await runCliCaptured(['reference', '--help']);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('--port');
  });

  it('answers an unknown command or option with a usage error, exit 2', async () => {
    const command = await runCliCaptured(['frobnicate']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("unknown command 'frobnicate'");
    const option = await runCliCaptured(['reference', '--frob']);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("unknown option '--frob'");
  });

  it('rejects a bad flag value naming the flag, exit 2', async () => {
    const result = await runCliCaptured(['reference', '--port', 'eighty']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--port');
    expect(result.stderr).toContain('eighty');
  });

  it('rejects a bad fault spec in one line, exit 2', async () => {
    const result = await runCliCaptured(['reference', '--port', '0', '--faults', 'bogus=1']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('bogus');
  });
});
