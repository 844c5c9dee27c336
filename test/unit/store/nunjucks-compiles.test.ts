/**
 * Nunjucks' compiled templates kept in the cache file (`nunjucks_compiles`): read back only for
 * the compiler that made them; keeping another compiler's drops the rest; a digest already held
 * keeps its row; past the row limit the rows start again, the new ones kept.
 */
import { describe, expect, it } from 'vitest';
import { useTempStore } from '../../helpers/store/temp-store.js';

const cache = useTempStore({ prefix: 'cms-nunjucks-compiles-' });

describe('the kept compiled templates', () => {
  it('are read back for their compiler only', () => {
    const repo = cache.store.nunjucksCompiles;
    expect(repo.read('nunjucks 1').size).toBe(0);
    repo.keep(
      'nunjucks 1',
      new Map([
        ['d1', 'code 1'],
        ['d2', 'code 2'],
      ]),
    );
    repo.keep('nunjucks 1', new Map([['d3', 'code 3']]));
    expect(repo.read('nunjucks 1')).toEqual(
      new Map([
        ['d1', 'code 1'],
        ['d2', 'code 2'],
        ['d3', 'code 3'],
      ]),
    );
    expect(repo.read('nunjucks 2').size).toBe(0);
  });

  it("of another compiler are dropped once a new one's are kept", () => {
    const repo = cache.store.nunjucksCompiles;
    repo.keep('nunjucks 1', new Map([['d1', 'old code']]));
    repo.keep('nunjucks 2', new Map([['d2', 'new code']]));
    expect(repo.read('nunjucks 2')).toEqual(new Map([['d2', 'new code']]));
    expect(repo.read('nunjucks 1').size).toBe(0);
  });

  it('keep the first code kept for a digest, and start again past their limit', () => {
    const repo = cache.store.nunjucksCompiles;
    repo.keep('n', new Map([['d', 'first']]));
    repo.keep('n', new Map([['d', 'second']]));
    expect(repo.read('n')).toEqual(new Map([['d', 'first']]));
    const many = new Map(Array.from({ length: 199 }, (_, i) => [`m${i}`, `code ${i}`]));
    repo.keep('n', many);
    expect(repo.read('n').size).toBe(200);
    repo.keep('n', new Map([['last', 'last code']]));
    expect(repo.read('n')).toEqual(new Map([['last', 'last code']]));
  });
});
