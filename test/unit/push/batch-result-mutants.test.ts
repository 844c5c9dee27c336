import { describe, expect, it } from 'vitest';
import { interpretBatchResult, siteError } from '../../../src/push/batch-result.js';
import type { BatchChunk } from '../../../src/push/batch-planner.js';

// Cases found by mutation testing (test/mutation/RESULTS.md): a write counts as done only when
// the site said so, with the item in its answer.

const one: BatchChunk = {
  lang: 'pl',
  refs: ['a'],
  requests: [{ method: 'POST', path: '/cms/v2/posts/1', body: { title: 'x' } }],
};

function outcomeOf(status: number, body: unknown, failed: string | null = null) {
  const [outcome] = interpretBatchResult(one, {
    failed,
    responses: [{ status, body, headers: {} }],
  });
  if (outcome === undefined) throw new Error('no outcome');
  return outcome;
}

describe('interpretBatchResult: what counts as a success', () => {
  it.each([199, 300, 302, 404, 500])('status %i is a failure even with an item body', (status) => {
    expect(outcomeOf(status, { id: 1 })).toMatchObject({ ok: false, status, notRun: false });
  });

  it.each([200, 201, 299])('status %i with an item is a success', (status) => {
    expect(outcomeOf(status, { id: 1 })).toEqual({ ref: 'a', ok: true, status, item: { id: 1 } });
  });

  it.each([
    ['no body', null],
    ['a list', [{ id: 1 }]],
    ['text', 'ok'],
  ])('a 200 with %s is a failure: there is no item to record', (_label, body) => {
    expect(outcomeOf(200, body)).toEqual({
      ref: 'a',
      ok: false,
      status: 200,
      code: 'http_200',
      message: 'the site answered 200',
      notRun: false,
    });
  });

  it('a 200 inside a batch the site marked failed is not a success', () => {
    expect(outcomeOf(200, { id: 1 }, 'validation')).toMatchObject({ ok: false, status: 200 });
  });
});

describe('siteError', () => {
  it('uses the status when the error object has no code or message strings', () => {
    expect(siteError({ code: 4, message: ['x'] }, 409)).toEqual({
      code: 'http_409',
      message: 'the site answered 409',
    });
  });

  it('appends only the string reasons of data.params, in order', () => {
    expect(
      siteError(
        {
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): a, b, c',
          data: { params: { a: 'a is bad', b: 7, c: 'c is bad' } },
        },
        400,
      ),
    ).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): a, b, c (a is bad; c is bad)',
    });
  });

  it('adds nothing when params holds no string reason or is not an object', () => {
    const base = { code: 'rest_invalid_param', message: 'Invalid.' };
    expect(siteError({ ...base, data: { params: { a: 1 } } }, 400).message).toBe('Invalid.');
    expect(siteError({ ...base, data: { params: ['a is bad'] } }, 400).message).toBe('Invalid.');
    expect(siteError({ ...base, data: ['x'] }, 400).message).toBe('Invalid.');
  });
});

describe('a request the site never ran', () => {
  it('says so in words the user can act on', () => {
    const [outcome] = interpretBatchResult(one, { failed: 'validation', responses: [null] });
    expect(outcome).toEqual({
      ref: 'a',
      ok: false,
      status: undefined,
      code: 'not_run',
      message: 'not run: another request in the same batch failed validation',
      notRun: true,
    });
  });
});
