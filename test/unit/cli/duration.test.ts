import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../src/duration.js';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['10s', 10_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['1.5s', 1500],
    [' 2m ', 120_000],
  ])('%s → %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '10', '10x', '0s', '0.0001s', '-5s', '1 h', 'ms', '5M', '1e3ms', '1h30m'])(
    'refuses %j with a usage error',
    (text) => {
      expect(() => parseDuration(text)).toThrow(
        expect.objectContaining({
          code: 'E_USAGE',
          exitCode: 2,
          message: `expected a duration such as 500ms, 10s, 5m or 1h, got "${text}"`,
        }),
      );
    },
  );

  it('names the option when asked', () => {
    expect(() => parseDuration('often', '--pull-every')).toThrow(
      '--pull-every: expected a duration such as 500ms, 10s, 5m or 1h, got "often"',
    );
  });
});
