/**
 * A line diff (Myers' O((N+M)·D) greedy algorithm, common prefix and suffix trimmed first) and
 * its unified-style hunks. Pure. Written here rather than taken from a package: it is some
 * eighty lines, the output we need (hunks of lines for a terminal and for JSON) is ours to
 * shape, and the tool's dependencies stay what they are.
 */

export type LineOp = ' ' | '-' | '+';

export interface DiffLine {
  readonly op: LineOp;
  readonly text: string;
}

/**
 * Edit distance past which the diff stops looking for the shortest script and shows the
 * remaining middle as removed then added (a rewrite, not an edit): bounds time and memory
 * (the trace is O(D²)) for texts that share nothing.
 * @default 2000
 */
export const MAX_EDIT_DISTANCE = 2000;

/** The lines of `before` and `after` as unchanged, removed and added, in order. */
export function lineDiff(before: string, after: string, maxD = MAX_EDIT_DISTANCE): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const middle = myers(a.slice(start, endA), b.slice(start, endB), maxD);
  return [
    ...a.slice(0, start).map((text) => ({ op: ' ' as const, text })),
    ...middle,
    ...a.slice(endA).map((text) => ({ op: ' ' as const, text })),
  ];
}

function splitLines(text: string): string[] {
  return text === '' ? [] : text.replace(/\r\n?/g, '\n').split('\n');
}

/** The shortest edit script of `a` into `b`, or a rewrite when it is longer than `maxD`. */
function myers(a: readonly string[], b: readonly string[], maxD: number): DiffLine[] {
  const n = a.length;
  const m = b.length;
  const offset = n + m + 1;
  const v = new Int32Array(2 * offset + 1);
  const trace: Int32Array[] = [];
  // The trace keeps one frontier per step: at most about 40 MB of them.
  const limit = Math.min(n + m, maxD, Math.floor(10_000_000 / v.length));
  for (let d = 0; d <= limit; d += 1) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
      let x = down ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, offset, d);
    }
  }
  return [
    ...a.map((text) => ({ op: '-' as const, text })),
    ...b.map((text) => ({ op: '+' as const, text })),
  ];
}

/** Walks the saved frontiers back from (n, m) to (0, 0), collecting the script. */
function backtrack(
  a: readonly string[],
  b: readonly string[],
  trace: readonly Int32Array[],
  offset: number,
  last: number,
): DiffLine[] {
  const out: DiffLine[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = last; d >= 0; d -= 1) {
    const v = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : v[offset + prevK]!;
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) {
      x -= 1;
      y -= 1;
      out.push({ op: ' ', text: a[x]! });
    }
    if (d > 0) {
      if (down) out.push({ op: '+', text: b[--y]! });
      else out.push({ op: '-', text: a[--x]! });
    }
  }
  return out.reverse();
}

/**
 * The changed lines with `context` unchanged lines around them; a gap between two hunks is
 * shown as one `…` line. Empty when nothing changed.
 */
export function changedHunks(lines: readonly DiffLine[], context = 2): DiffLine[] {
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((line, index) => {
    if (line.op === ' ') return;
    const from = Math.max(0, index - context);
    const to = Math.min(lines.length - 1, index + context);
    for (let i = from; i <= to; i += 1) keep[i] = true;
  });
  const out: DiffLine[] = [];
  let skipped = false;
  lines.forEach((line, index) => {
    if (!keep[index]) {
      skipped = true;
      return;
    }
    if (skipped && out.length > 0) out.push({ op: ' ', text: '…' });
    skipped = false;
    out.push(line);
  });
  return out;
}
