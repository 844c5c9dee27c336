/**
 * The render worker keeps Nunjucks' compiled code across Eleventy runs
 * (`nunjucks-compile-cache.ts`). What must hold: a template compiled again in another
 * environment renders with that environment's own globals, and the same text compiled where
 * a custom tag is not defined fails there as Nunjucks fails without the cache, instead of
 * reusing code compiled where the tag was known. The entries are the cache instance's own:
 * outside its `around`, Nunjucks compiles as it does without any cache, and two instances
 * share nothing. The oracle is Nunjucks itself (the same module instance Eleventy loads,
 * resolved from Eleventy's location, as the renderer does).
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { NunjucksCompileCache } from '../../../src/site/nunjucks-compile-cache.js';

interface Env {
  addGlobal(name: string, value: unknown): void;
  addExtension(name: string, extension: unknown): void;
  renderString(src: string, ctx: object): string;
}
interface Nunjucks {
  Environment: new () => Env;
  nodes: {
    CallExtension: new (ext: unknown, prop: string, args: unknown, body: unknown[]) => unknown;
  };
}

const require = createRequire(createRequire(import.meta.url).resolve('@11ty/eleventy'));
const nunjucks = require('nunjucks') as Nunjucks;
const compiler = require('nunjucks/src/compiler.js') as { compile: (...args: unknown[]) => string };

/** Runs a test's body inside a fresh cache's `around`. */
function cached(body: () => void): () => Promise<void> {
  return () => new NunjucksCompileCache().around(() => Promise.resolve().then(body));
}

/** A `{% shout %}` tag that prints SHOUT. */
function shoutExtension(): unknown {
  return {
    tags: ['shout'],
    parse(parser: {
      nextToken(): { value: string };
      parseSignature(a: null, b: boolean): unknown;
      advanceAfterBlockEnd(name: string): void;
    }) {
      const token = parser.nextToken();
      const args = parser.parseSignature(null, true);
      parser.advanceAfterBlockEnd(token.value);
      return new nunjucks.nodes.CallExtension(this, 'run', args, []);
    },
    run: () => 'SHOUT',
  };
}

describe('Nunjucks compiles kept across environments', () => {
  it(
    'renders the same text with each environment’s own globals',
    cached(() => {
      const src = 'site {{ who }}: {% for n in [1, 2] %}{{ n }}{% endfor %}';
      const one = new nunjucks.Environment();
      one.addGlobal('who', 'one');
      const two = new nunjucks.Environment();
      two.addGlobal('who', 'two');
      expect(one.renderString(src, {})).toBe('site one: 12');
      expect(two.renderString(src, {})).toBe('site two: 12');
      expect(one.renderString(src, { who: 'ctx' })).toBe('site ctx: 12');
    }),
  );

  it(
    'does not reuse code compiled with an extension where the extension is missing',
    cached(() => {
      const src = 'a {% shout %} b';
      const withTag = new nunjucks.Environment();
      withTag.addExtension('shout', shoutExtension());
      expect(withTag.renderString(src, {})).toBe('a SHOUT b');
      const without = new nunjucks.Environment();
      expect(() => without.renderString(src, {})).toThrow(/shout/);
      // And back: the extension's environment still renders it.
      expect(withTag.renderString(src, {})).toBe('a SHOUT b');
    }),
  );

  it(
    'keeps templates of different text apart',
    cached(() => {
      const env = new nunjucks.Environment();
      expect(env.renderString('x{{ 1 + 1 }}', {})).toBe('x2');
      expect(env.renderString('x{{ 2 + 2 }}', {})).toBe('x4');
    }),
  );

  it('keeps entries in its own instance, and only while its run lasts', async () => {
    const original = compiler.compile;
    const src = 'own {{ 3 + 4 }}';
    const first = new NunjucksCompileCache();
    const second = new NunjucksCompileCache();
    await first.around(() => {
      expect(new nunjucks.Environment().renderString(src, {})).toBe('own 7');
      return Promise.resolve();
    });
    const kept = first.size;
    expect(kept).toBeGreaterThan(0);
    expect(second.size).toBe(0);
    // Over: Nunjucks' own compile again, and compiling adds nothing to the cache.
    expect(compiler.compile).toBe(original);
    expect(new nunjucks.Environment().renderString('after {{ 1 }}', {})).toBe('after 1');
    expect(first.size).toBe(kept);
    // Overlapping runs of two instances: each keeps its own, and both end restored.
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const outer = first.around(() => held);
    await second.around(() => {
      expect(new nunjucks.Environment().renderString('two {{ 2 }}', {})).toBe('two 2');
      return Promise.resolve();
    });
    release();
    await outer;
    expect(second.size).toBeGreaterThan(0);
    expect(compiler.compile).toBe(original);
    expect(new nunjucks.Environment().renderString('later {{ 5 }}', {})).toBe('later 5');
    expect(first.size).toBe(kept);
  });
});

/** Runs `body` with Nunjucks' own compile counted; returns how often it compiled. */
async function countingCompiles(body: () => Promise<void>): Promise<number> {
  const original = compiler.compile;
  let compiles = 0;
  compiler.compile = (...args: unknown[]) => {
    compiles++;
    return original(...args);
  };
  try {
    await body();
  } finally {
    compiler.compile = original;
  }
  return compiles;
}

describe('Nunjucks compiles handed from one process to the next', () => {
  const render = (cache: NunjucksCompileCache, src: string, who: string): Promise<string> =>
    cache.around(() => {
      const env = new nunjucks.Environment();
      env.addGlobal('who', who);
      return Promise.resolve(env.renderString(src, {}));
    });

  it('lets a fresh cache given another’s compiled code render compiling nothing', async () => {
    const src = 'hello {{ who }}: {% for n in [1, 2, 3] %}{{ n }}{% endfor %}';
    const first = new NunjucksCompileCache();
    let out = '';
    expect(await countingCompiles(async () => void (out = await render(first, src, 'a')))).toBe(1);
    expect(out).toBe('hello a: 123');
    const handed = first.takeCompiled();
    expect(handed.size).toBe(1);
    // Taken once: a later take hands back only what was compiled since.
    expect(first.takeCompiled().size).toBe(0);

    const second = new NunjucksCompileCache();
    second.adopt(handed);
    expect(await countingCompiles(async () => void (out = await render(second, src, 'b')))).toBe(0);
    expect(out).toBe('hello b: 123');
    // Adopted code is not handed back as compiled here.
    expect(second.takeCompiled().size).toBe(0);
  });

  it('does not use code compiled for another text, however alike', async () => {
    const first = new NunjucksCompileCache();
    await render(first, 'x {{ 1 + 1 }} {{ who }}', 'a');
    const second = new NunjucksCompileCache();
    second.adopt(first.takeCompiled());
    let out = '';
    const compiles = await countingCompiles(
      async () => void (out = await render(second, 'x {{ 2 + 2 }} {{ who }}', 'b')),
    );
    expect(out).toBe('x 4 b');
    expect(compiles).toBe(1);
    expect(second.takeCompiled().size).toBe(1);
  });

  it('does not use code compiled with other extensions', async () => {
    const src = 'a {% shout %} b';
    const first = new NunjucksCompileCache();
    await first.around(() => {
      const env = new nunjucks.Environment();
      env.addExtension('shout', shoutExtension());
      expect(env.renderString(src, {})).toBe('a SHOUT b');
      return Promise.resolve();
    });
    const second = new NunjucksCompileCache();
    second.adopt(first.takeCompiled());
    await second.around(() => {
      expect(() => new nunjucks.Environment().renderString(src, {})).toThrow(/shout/);
      return Promise.resolve();
    });
  });
});
