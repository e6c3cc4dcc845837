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

/** Direct children (e.g. the cockpit's ffmpeg decoder and the tsx loader's node). */
export function descendants(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name), ...descendants(Number(name)));
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

/** Moves a process and all its threads onto the given CPUs. */
function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-c', '-p', cpus, String(pid)], { stdio: 'ignore' });
}

/**
 * Runs `measure` with each process pinned to its CPUs, then gives each back the affinity it had
 * (a cockpit started under `taskset -c 0` stays on core 0).
 */
export async function withCores<T>(placement: Array<[pid: number, cpus: string]>, measure: () => Promise<T>): Promise<T> {
  const before = placement.map(([pid]) => [pid, affinityOf(pid)] as const);
  try {
    for (const [pid, cpus] of placement) pin(pid, cpus);
    return await measure();
  } finally {
    for (const [pid, cpus] of before) pin(pid, cpus);
  }
}
