/**
 * The Pagefind processes that are children of this test process, exited ones waiting to be
 * collected included: each as its pid, or as `pid stat` (`Z`: exited, not yet collected) with
 * `withState`.
 */
import { execFileSync } from 'node:child_process';

export function pagefindChildren(options: { withState?: boolean } = {}): string[] {
  const columns = options.withState ? 'pid=,stat=,comm=' : 'pid=,comm=';
  const out = execFileSync('ps', ['-o', columns, '--ppid', String(process.pid)], {
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((line) => line.includes('pagefind'))
    .map((line) =>
      line
        .trim()
        .split(/\s+/)
        .slice(0, options.withState ? 2 : 1)
        .join(' '),
    );
}
