import { describe, expect, it } from 'vitest';
import { fromRow } from '../../../src/store/row-fields.js';

interface Sample {
  readonly lang: string;
  readonly baseModifiedGmt: string | null;
  readonly fileHash: string | null;
  readonly checkedOutAt: string;
}

describe('fromRow', () => {
  it('names every column in camelCase and keeps its value, null included', () => {
    const row = {
      lang: 'pl',
      base_modified_gmt: null,
      file_hash: 'ab12',
      checked_out_at: '2026-01-02T03:04:05.000Z',
    };
    expect(fromRow<Sample>(row)).toStrictEqual({
      lang: 'pl',
      baseModifiedGmt: null,
      fileHash: 'ab12',
      checkedOutAt: '2026-01-02T03:04:05.000Z',
    });
  });
});
