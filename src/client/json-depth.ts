/**
 * How deep a parsed JSON value nests, measured without recursion (a value nested 100,000 deep
 * parses fine but overflows the stack of every recursive walk after it: `JSON.stringify`, the
 * content hash, SQLite's JSON functions, which stop at 1,000). Pure.
 */

/** Bodies nested deeper than this are refused by the client: nothing can process them safely. */
export const MAX_BODY_DEPTH = 5_000;

/**
 * Whether `value` nests deeper than `max` levels (a scalar is depth 0, `[]` and `{}` depth 1).
 * Stops at the first path that goes too deep, so a hostile value costs at most its size.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > max) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Whether the JSON text `text` may parse into a value nesting deeper than `max` levels: each
 * level is an array or object, each of those a `[` or `{` of the text, so a text with at most
 * `max` of them cannot. Counting them with `indexOf` costs a fraction of walking the parsed
 * value, which took ~9 ms of a no-op `run`'s CPU for its 16 answers (test/bench/RESULTS.md,
 * i-noop6); a text with more (a large crawl page) is walked (`nestsDeeperThan`). Pure.
 */
export function mayNestDeeperThan(text: string, max: number): boolean {
  let brackets = 0;
  for (const bracket of ['[', '{']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      brackets++;
      if (brackets > max) return true;
    }
  }
  return false;
}
