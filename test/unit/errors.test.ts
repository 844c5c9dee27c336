import { describe, expect, it } from 'vitest';
import {
  CmsMirrorError,
  ERROR_CODES,
  InterruptedError,
  ReferenceSiteError,
  SearchIndexError,
  WorkerError,
  rebuildError,
} from '../../src/errors.js';

describe('error codes', () => {
  it('are each listed once in the code table', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });

  // The codes a user (or a --json reader) sees for these failures, as they were before the
  // classes existed: a rename here is a change of the CLI's output.
  it.each([
    [new InterruptedError('stopped'), 'E_INTERRUPTED', 'InterruptedError'],
    [new WorkerError('the render thread was closed'), 'E_WORKER', 'WorkerError'],
    [new SearchIndexError('no index'), 'E_SEARCH_INDEX', 'SearchIndexError'],
    [new ReferenceSiteError('exited early'), 'E_REFERENCE', 'ReferenceSiteError'],
  ] as const)('%s carries %s, exits 1 and is a user error', (error, code, name) => {
    expect(error).toBeInstanceOf(CmsMirrorError);
    expect(error.code).toBe(code);
    expect(error.name).toBe(name);
    expect(error.exitCode).toBe(1);
    expect(error.isUserError).toBe(true);
    expect(ERROR_CODES).toContain(code);
  });

  it('rebuilds an error that crossed a thread with its code and message', () => {
    const rebuilt = rebuildError('E_STORE', 'cannot write cache.db');
    expect(rebuilt).toBeInstanceOf(CmsMirrorError);
    expect(rebuilt.code).toBe('E_STORE');
    expect(rebuilt.message).toBe('cannot write cache.db');
  });
});
