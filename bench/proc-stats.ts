/** CPU and memory of a process and its children, read from /proc (Linux). */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** utime + stime of one process, in seconds. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * Every process below `pid`, skipping the trees of `except`: its children (the cockpit's ffmpeg
 * decoder, the node a tsx loader starts) and theirs.
 */
export function descendants(pid: number, except: ReadonlySet<number> = new Set()): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || except.has(Number(name))) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name), ...descendants(Number(name), except));
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

/** Total CPU seconds of a process tree. */
export function treeCpu(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, p) => sum + cpuSeconds(p), 0);
}

/** Resident memory of a process tree, MiB. */
export function treeRssMb(pid: number): number {
  let kb = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      kb += Number(match?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return Math.round(kb / 1024);
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A process's CPU affinity, in `taskset`'s list syntax ("0-1", "0"). */
function affinityOf(pid: number): string {
  const out = execFileSync('taskset', ['-c', '-p', String(pid)], { encoding: 'utf8' });
  return out.slice(out.lastIndexOf(':') + 1).trim();
}

/** Where a process runs: its main thread on `cpus`; its other threads and its children on `helpers` (default the same). */
export type Placement = [pid: number, cpus: string, helpers?: string];

function taskset(id: number, cpus: string, allThreads: boolean): void {
  execFileSync('taskset', [...(allThreads ? ['-a'] : []), '-c', '-p', cpus, String(id)], { stdio: 'ignore' });
}

/**
 * Moves a process, its descendants and all their threads onto the given CPUs, except the trees
 * of `except` (placed on their own: the bench starts the cockpit, so the cockpit is below it).
 * The descendants matter: an entry started under tsx runs in a child node process, and the
 * simulator's camera encoder is an ffmpeg below that; pinning only the parent left both free to
 * run on the core the cockpit was meant to have to itself.
 *
 * With `helpers` apart, only the main thread (whose id is the process's) stays on `cpus`: the
 * thread that runs Node's event loop gets the core, while V8's garbage collector and compiler
 * threads, libuv's pool and any child process run elsewhere, as they would on any multi-core board.
 */
function pin([pid, cpus, helpers = cpus]: Placement, except: ReadonlySet<number>): void {
  taskset(pid, helpers, true);
  if (helpers !== cpus) taskset(pid, cpus, false);
  for (const child of descendants(pid, except)) {
    try {
      taskset(child, helpers, true);
    } catch {
      // It ended while we looked.
    }
  }
}

/**
 * Runs `measure` with each process tree placed (see `pin`), then gives each tree back the
 * affinity its root had (a cockpit started under `taskset -c 0` stays on core 0).
 */
export async function withCores<T>(placement: Placement[], measure: () => Promise<T>): Promise<T> {
  const before = placement.map(([pid]): Placement => [pid, affinityOf(pid)]);
  const roots = new Set(placement.map(([pid]) => pid));
  try {
    for (const place of placement) pin(place, roots);
    return await measure();
  } finally {
    for (const place of before) pin(place, roots);
  }
}
