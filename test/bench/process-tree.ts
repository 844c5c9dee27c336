/**
 * Shared by the benchmarks that run commands as child processes: one command under GNU time
 * (wall, user+sys CPU of the command and every descendant it waited for, peak RSS of its
 * largest single process) while the RSS of its whole process tree is sampled every 100 ms
 * from /proc (so the tree peak can miss spikes shorter than that). Linux only.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const TIME = '/usr/bin/time';

export interface Timed {
  wallSeconds: number;
  /** GNU time's %M: the largest single process of the tree. */
  peakRssMb: number;
  /** The sum of RSS over the whole tree, at its sampled maximum. */
  treePeakMb: number;
  cpuSeconds: number;
  stdout: string;
}

/** Parent pid of every process, read from /proc/<pid>/stat (comm may hold spaces or ')'). */
function parents(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  return children;
}

/** Direct children of `pid` whose command line contains `needle`. */
export function childrenMatching(pid: number, needle: string): number[] {
  return (parents().get(pid) ?? []).filter((child) => {
    try {
      return fs
        .readFileSync(`/proc/${child}/cmdline`, 'utf8')
        .split('\0')
        .join(' ')
        .includes(needle);
    } catch {
      return false; // exited meanwhile
    }
  });
}

/** Peak resident set of one process so far (the kernel's VmHWM), in MB; 0 if it is gone. */
export function peakRssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Resident set of a process and all its descendants, in MB. */
export function treeRssMb(root: number): number {
  const children = parents();
  let kb = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      kb += Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
    } catch {
      // exited meanwhile
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return kb / 1024;
}

export interface TimedOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Where GNU time writes its figures (a scratch directory of the caller). */
  dir: string;
}

/** `command args` under GNU time; rejects on a non-zero exit with the tail of its stderr. */
export function timed(command: string, args: string[], options: TimedOptions): Promise<Timed> {
  const timeFile = path.join(options.dir, 'time.txt');
  return new Promise((resolve, reject) => {
    const child = spawn(TIME, ['-f', '%e %M %U %S', '-o', timeFile, command, ...args], {
      env: { ...process.env, ...options.env },
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let treePeakMb = 0;
    const sampler = setInterval(() => {
      if (child.pid !== undefined) treePeakMb = Math.max(treePeakMb, treeRssMb(child.pid));
    }, 100);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => {
      clearInterval(sampler);
      reject(error);
    });
    child.on('exit', (code) => {
      clearInterval(sampler);
      if (code !== 0) {
        reject(
          new Error(
            `${path.basename(command)} ${args.join(' ')} exited with ${code}: ${stderr.slice(-2000)}`,
          ),
        );
        return;
      }
      const [wall, maxRssKb, user, system] = fs
        .readFileSync(timeFile, 'utf8')
        .trim()
        .split('\n')
        .at(-1)!
        .split(' ')
        .map(Number);
      resolve({
        wallSeconds: wall!,
        peakRssMb: maxRssKb! / 1024,
        treePeakMb,
        cpuSeconds: user! + system!,
        stdout,
      });
    });
  });
}

/** The 1-, 5- and 15-minute load averages, for the record of a run. */
export function load(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}

export function countFiles(dir: string): number {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .length;
}
