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
