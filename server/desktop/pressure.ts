/**
 * Resource pressure for /api/health: open descriptors, their limit, and sockets of this process
 * stuck in CLOSE-WAIT towards the daemon port (the leak daemon-api.md §10.5 reproduces). Linux
 * reads /proc; elsewhere the figures are 0 and the warning stays off.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { Pressure } from '../contract/health.ts';

const CLOSE_WAIT = '08';

export function readPressure(daemonPort: number): Pressure {
  if (process.platform !== 'linux') return { fds: 0, fd_limit: 0, close_wait: 0, warning: false };
  const fdNames = safe(() => readdirSync('/proc/self/fd'), []);
  const fdLimit = safe(() => softFdLimit(readFileSync('/proc/self/limits', 'utf8')), 0);
  const closeWait = safe(() => countCloseWait(fdNames, daemonPort), 0);
  const warning = (fdLimit > 0 && fdNames.length > fdLimit * 0.6) || closeWait >= 50;
  return { fds: fdNames.length, fd_limit: fdLimit, close_wait: closeWait, warning };
}

export function softFdLimit(limits: string): number {
  const line = limits.split('\n').find((l) => l.startsWith('Max open files'));
  const soft = line?.trim().split(/\s+/)[3];
  return soft && /^\d+$/.test(soft) ? Number(soft) : 0;
}

function countCloseWait(fdNames: string[], port: number): number {
  const ours = new Set<string>();
  for (const name of fdNames) {
    const link = safe(() => readlinkSync(`/proc/self/fd/${name}`), '');
    const match = /^socket:\[(\d+)\]$/.exec(link);
    if (match) ours.add(match[1] as string);
  }
  let count = 0;
  for (const table of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) {
    const text = safe(() => readFileSync(table, 'utf8'), '');
    count += countInTable(text, port, ours);
  }
  return count;
}

/** Rows of /proc/net/tcp: `sl local rem st ... uid timeout inode`, addresses as HEXIP:HEXPORT. */
export function countInTable(text: string, port: number, inodes: ReadonlySet<string>): number {
  let count = 0;
  for (const row of text.split('\n').slice(1)) {
    const cols = row.trim().split(/\s+/);
    if (cols.length < 10 || cols[3] !== CLOSE_WAIT) continue;
    const remotePort = parseInt((cols[2] ?? '').split(':')[1] ?? '', 16);
    if (remotePort === port && inodes.has(cols[9] as string)) count += 1;
  }
  return count;
}

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}
