/**
 * Resource pressure for /api/health (the health contract: warn above 60 % of the descriptor limit or
 * at 50 CLOSE-WAIT sockets). When the daemon runs on this host as another process, the figures
 * are the daemon's: its descriptors and its sockets on the daemon port left in CLOSE-WAIT (the
 * uvicorn leak docs/daemon.md describes), found from the owner of the listening socket.
 * Otherwise (a daemon elsewhere, the in-process simulator, or /proc of the daemon not readable)
 * they are the cockpit's own, with its CLOSE-WAIT sockets towards the daemon port, and `source`
 * says which. Linux reads /proc; elsewhere the figures are 0 and the warning stays off.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { Pressure } from '../contract/health.ts';

const CLOSE_WAIT = '08';
const LISTEN = '0A';

export function readPressure(daemonPort: number, daemonPid?: number): Pressure {
  return createPressureReader(daemonPort, { closeWaitEveryMs: 0 })(daemonPid);
}

export interface PressureReaderOptions {
  /**
   * The soonest the CLOSE-WAIT counts are read again (default 5 s), and only once the descriptor
   * count moved since: the counts come from /proc/net/tcp, which the kernel builds by walking every
   * TCP socket of the network namespace, 10 ms to 60 ms of system CPU per read on a busy host
   * (measured: 1.4 % of a core at rest when read every 5 s), where counting descriptors costs a
   * few microseconds. A leak opens new sockets while the old ones sit in CLOSE-WAIT, so it shows
   * in the descriptors first; a cockpit at rest keeps the same ones and reads the tables rarely.
   */
  closeWaitEveryMs?: number;
  /** The longest a count is kept while the descriptors stand still (default 5 min). */
  closeWaitMaxAgeMs?: number;
  now?: () => number;
}

/** Reads the pressure figures, with the CLOSE-WAIT counts refreshed at most every `closeWaitEveryMs`. */
export function createPressureReader(
  daemonPort: number,
  options: PressureReaderOptions = {},
): (daemonPid?: number) => Pressure {
  const every = options.closeWaitEveryMs ?? 5000;
  const maxAge = options.closeWaitMaxAgeMs ?? 300_000;
  const now = options.now ?? Date.now;
  let counted:
    { at: number; source: Pressure['source']; fds: number; closeWait: number; cockpitCloseWait: number } | undefined;
  return (daemonPid) => {
    if (process.platform !== 'linux') {
      return {
        source: 'cockpit',
        pid: null,
        fds: 0,
        fd_limit: 0,
        close_wait: 0,
        cockpit_close_wait: 0,
        warning: false,
      };
    }
    const selfFds = safe(() => readdirSync('/proc/self/fd'), []);
    const daemonFds = daemonPid !== undefined ? safe(() => readdirSync(`/proc/${daemonPid}/fd`), null) : null;
    const [source, proc, fdNames] =
      daemonPid !== undefined && daemonFds !== null
        ? (['daemon', String(daemonPid), daemonFds] as const)
        : (['cockpit', 'self', selfFds] as const);
    const fdLimit = safe(() => softFdLimit(readFileSync(`/proc/${proc}/limits`, 'utf8')), 0);
    const t = now();
    const stale =
      !counted ||
      counted.source !== source ||
      t - counted.at >= maxAge ||
      (t - counted.at >= every && fdNames.length !== counted.fds);
    if (stale) {
      // One read of the tables serves both counts when the daemon shares our network namespace.
      const own = tcpTables('self');
      const cockpitCloseWait = safe(() => countCloseWait('self', selfFds, daemonPort, 'remote', own), 0);
      const theirs = source === 'daemon' && !sameNetwork(proc) ? tcpTables(proc) : own;
      const closeWait =
        source === 'daemon'
          ? safe(() => countCloseWait(proc, fdNames, daemonPort, 'local', theirs), 0)
          : cockpitCloseWait;
      counted = { at: t, source, fds: fdNames.length, closeWait, cockpitCloseWait };
    }
    const { closeWait, cockpitCloseWait } = counted as NonNullable<typeof counted>;
    const warning = (fdLimit > 0 && fdNames.length > fdLimit * 0.6) || closeWait >= 50;
    return {
      source,
      pid: source === 'daemon' ? (daemonPid as number) : process.pid,
      fds: fdNames.length,
      fd_limit: fdLimit,
      close_wait: closeWait,
      cockpit_close_wait: cockpitCloseWait,
      warning,
    };
  };
}

/**
 * The process listening on the daemon port on this host, by the inode of its LISTEN socket; null
 * when none is visible (a remote daemon) or the owner is this process (the in-process simulator).
 */
export function findListenerPid(port: number, procRoot = '/proc'): number | null {
  if (process.platform !== 'linux') return null;
  const inodes = new Set<string>();
  for (const table of ['net/tcp', 'net/tcp6']) {
    const text = safe(() => readFileSync(`${procRoot}/self/${table}`, 'utf8'), '');
    for (const row of text.split('\n').slice(1)) {
      const cols = row.trim().split(/\s+/);
      if (cols.length >= 10 && cols[3] === LISTEN && parseInt((cols[1] ?? '').split(':')[1] ?? '', 16) === port) {
        inodes.add(`socket:[${cols[9]}]`);
      }
    }
  }
  if (inodes.size === 0) return null;
  for (const entry of safe(() => readdirSync(procRoot), [])) {
    if (!/^\d+$/.test(entry)) continue;
    const fds = safe(() => readdirSync(`${procRoot}/${entry}/fd`), []);
    if (fds.some((fd) => inodes.has(safe(() => readlinkSync(`${procRoot}/${entry}/fd/${fd}`), '')))) {
      return Number(entry) === process.pid ? null : Number(entry);
    }
  }
  return null;
}

export function softFdLimit(limits: string): number {
  const line = limits.split('\n').find((l) => l.startsWith('Max open files'));
  const soft = line?.trim().split(/\s+/)[3];
  return soft && /^\d+$/.test(soft) ? Number(soft) : 0;
}

/** The process's TCP tables (IPv4 and IPv6), as the kernel writes them. */
function tcpTables(proc: string): string[] {
  return [`/proc/${proc}/net/tcp`, `/proc/${proc}/net/tcp6`].map((table) =>
    safe(() => readFileSync(table, 'utf8'), ''),
  );
}

/** Whether a process sees the same network namespace as this one (then its tables are ours). */
function sameNetwork(proc: string): boolean {
  const mine = safe(() => readlinkSync('/proc/self/ns/net'), 'self');
  return safe(() => readlinkSync(`/proc/${proc}/ns/net`), 'other') === mine;
}

function countCloseWait(
  proc: string,
  fdNames: readonly string[],
  port: number,
  side: 'local' | 'remote',
  tables: readonly string[],
): number {
  const ours = new Set<string>();
  for (const name of fdNames) {
    const link = safe(() => readlinkSync(`/proc/${proc}/fd/${name}`), '');
    const match = /^socket:\[(\d+)\]$/.exec(link);
    if (match) ours.add(match[1] as string);
  }
  return tables.reduce((count, text) => count + countInTable(text, port, ours, side), 0);
}

/**
 * Rows of /proc/net/tcp: `sl local rem st ... uid timeout inode`, addresses as HEXIP:HEXPORT.
 * `remote`: our client sockets towards the port; `local`: the server's own sockets on the port.
 */
export function countInTable(
  text: string,
  port: number,
  inodes: ReadonlySet<string>,
  side: 'local' | 'remote' = 'remote',
): number {
  let count = 0;
  for (const row of text.split('\n').slice(1)) {
    // Most rows are in other states: a cheap look for the state column before splitting the row.
    if (!row.includes(` ${CLOSE_WAIT} `)) continue;
    const cols = row.trim().split(/\s+/);
    if (cols.length < 10 || cols[3] !== CLOSE_WAIT) continue;
    const portOf = parseInt((cols[side === 'remote' ? 2 : 1] ?? '').split(':')[1] ?? '', 16);
    if (portOf === port && inodes.has(cols[9] as string)) count += 1;
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
