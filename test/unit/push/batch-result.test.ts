import { describe, expect, it } from 'vitest';
import {
  interpretBatchResult,
  NOT_RUN_MESSAGE,
  siteError,
} from '../../../src/push/batch-result.js';
import type { BatchChunk } from '../../../src/push/batch-planner.js';

const chunk: BatchChunk = {
  lang: 'pl',
  refs: ['a', 'b', 'c'],
  requests: [
    { method: 'POST', path: '/cms/v2/posts/1', body: { title: 'x' } },
    { method: 'POST', path: '/cms/v2/posts/2', body: { status: 'publishd' } },
    { method: 'POST', path: '/cms/v2/posts', body: { title: 'n' } },
  ],
};

const invalidBody = {
  code: 'rest_invalid_param',
  message: 'Invalid parameter(s): status',
  data: {
    status: 400,
    params: { status: 'status is not one of publish, future, draft, pending, and private.' },
  },
};

describe('interpretBatchResult', () => {
  it('maps a normal batch: successes with their item, failures with the site message', () => {
    const outcomes = interpretBatchResult(chunk, {
      failed: null,
      responses: [
        { status: 200, body: { id: 1, modified_gmt: '2024-01-01T00:00:00' }, headers: {} },
        { status: 400, body: invalidBody, headers: {} },
        { status: 201, body: { id: 30 }, headers: { Location: 'x' } },
      ],
    });
    expect(outcomes).toEqual([
      { ref: 'a', ok: true, status: 200, item: { id: 1, modified_gmt: '2024-01-01T00:00:00' } },
      {
        ref: 'b',
        ok: false,
        status: 400,
        code: 'rest_invalid_param',
        message:
          'Invalid parameter(s): status (status is not one of publish, future, draft, pending, and private.)',
        notRun: false,
      },
      { ref: 'c', ok: true, status: 201, item: { id: 30 } },
    ]);
  });

  it('marks the valid requests of a failed require-all-validate batch as not run', () => {
    const outcomes = interpretBatchResult(chunk, {
      failed: 'validation',
      responses: [null, { status: 400, body: invalidBody, headers: {} }, null],
    });
    expect(outcomes.map((o) => [o.ref, o.ok, o.ok ? '' : o.code, o.ok ? false : o.notRun])).toEqual(
      [
        ['a', false, 'not_run', true],
        ['b', false, 'rest_invalid_param', false],
        ['c', false, 'not_run', true],
      ],
    );
    expect(outcomes[0]).toMatchObject({ message: NOT_RUN_MESSAGE, status: undefined });
  });

  it('refuses an answer whose length does not match the chunk', () => {
    expect(() => interpretBatchResult(chunk, { failed: null, responses: [null] })).toThrow(
      /1 responses for 3 requests/,
    );
  });
});

describe('siteError', () => {
  it('falls back to the status when the body is not an error object', () => {
    expect(siteError('oops', 500)).toEqual({ code: 'http_500', message: 'the site answered 500' });
    expect(siteError({ code: 'rest_already_trashed', message: 'Already trashed.' }, 410)).toEqual({
      code: 'rest_already_trashed',
      message: 'Already trashed.',
    });
  });
});
