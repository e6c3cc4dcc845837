/**
 * Self-test checks of the computer the cockpit runs on: disk space in the data folder, file
 * descriptor pressure, and whether the clock is synchronised (and agrees with the daemon's).
 */
import { execFile } from 'node:child_process';
import { statfs } from 'node:fs/promises';
import type { Pressure } from '../contract/health.ts';
import { messageOf } from '../errors.ts';
import type { Check } from './run-checks.ts';

export interface HostProbes {
  /** Free bytes where the cockpit keeps its data. */
  freeBytes(path: string): Promise<number>;
  /** true / false from timedatectl; null when it cannot tell (no systemd). */
  ntpSynchronized(): Promise<boolean | null>;
}

export const realProbes: HostProbes = {
  async freeBytes(path) {
    const s = await statfs(path);
    return s.bavail * s.bsize;
  },
  ntpSynchronized: () =>
    new Promise((resolve) => {
      execFile('timedatectl', ['show', '-p', 'NTPSynchronized', '--value'], { timeout: 3000 }, (error, stdout) => {
        if (error) resolve(null);
        else resolve(stdout.trim() === 'yes' ? true : stdout.trim() === 'no' ? false : null);
      });
    }),
};

const MB = 1024 * 1024;

export interface HostDeps {
  dataDir: string;
  pressure(): Pressure;
  /**
   * The daemon's clock minus ours, in ms, from its state timestamp; null when the state carries no
   * readable timestamp; throws when the daemon cannot be asked.
   */
  daemonClockOffsetMs(): Promise<number | null>;
  probes?: HostProbes;
}

export function hostChecks(deps: HostDeps): Check[] {
  const probes = deps.probes ?? realProbes;
  return [
    {
      id: 'disk',
      title: 'Disk space',
      timeoutMs: 3000,
      async run() {
        const free = await probes.freeBytes(deps.dataDir);
        const values = { freeMB: Math.round(free / MB), path: deps.dataDir };
        if (free < 100 * MB)
          return {
            outcome: 'fail',
            detail: `Only ${values.freeMB} MB free for the cockpit's data.`,
            advice: 'Free disk space: recordings and logs stop being saved when it runs out.',
            values,
          };
        if (free < 1024 * MB)
          return {
            outcome: 'warn',
            detail: `${values.freeMB} MB free for the cockpit's data.`,
            advice: 'Free some disk space soon.',
            values,
          };
        return { outcome: 'ok', detail: `${values.freeMB} MB free.`, values };
      },
    },
    {
      id: 'descriptors',
      title: 'File descriptor pressure',
      timeoutMs: 2000,
      async run() {
        const p = deps.pressure();
        const values = { fds: p.fds, limit: p.fd_limit, closeWait: p.close_wait };
        if (p.warning)
          return {
            outcome: 'warn',
            detail: `${p.fds} of ${p.fd_limit} file descriptors in use, ${p.close_wait} daemon sockets left in CLOSE-WAIT.`,
            advice: 'Something is leaking connections: download the diagnostics bundle, then restart the cockpit.',
            values,
          };
        return { outcome: 'ok', detail: `${p.fds} of ${p.fd_limit} file descriptors in use.`, values };
      },
    },
    {
      id: 'clock',
      title: 'Clock synchronised',
      timeoutMs: 4000,
      async run() {
        // A daemon that cannot be asked, or whose state carries no readable timestamp, leaves the
        // clocks uncompared: that is said, never passed as clocks that agree.
        const [synced, read] = await Promise.all([
          probes.ntpSynchronized(),
          deps.daemonClockOffsetMs().then(
            (offset) => ({ offset, why: offset === null ? 'its state carries no readable timestamp' : '' }),
            (error: unknown) => ({ offset: null, why: `the daemon did not answer (${messageOf(error)})` }),
          ),
        ]);
        const offset = read.offset;
        const values = { ntpSynchronized: synced, daemonOffsetMs: offset };
        if (offset !== null && Math.abs(offset) > 2000)
          return {
            outcome: 'warn',
            detail: `The robot's clock is ${(offset / 1000).toFixed(1)} s off this computer's.`,
            advice: 'Turn on network time (NTP) on both; logs and recordings will not line up until then.',
            values,
          };
        if (synced === false)
          return {
            outcome: 'warn',
            detail: `This computer's clock is not synchronised (NTP).${offset === null ? ` It could not be compared with the robot's: ${read.why}.` : ''}`,
            advice: 'Turn on network time: `timedatectl set-ntp true`.',
            values,
          };
        if (offset === null)
          return {
            outcome: 'warn',
            detail: `Could not compare this computer's clock with the robot's: ${read.why}.${synced === null ? ' This computer cannot say whether NTP is on.' : " This computer's clock is synchronised (NTP)."}`,
            advice: 'Check the daemon connection (the daemon check above), then check again.',
            values,
          };
        return {
          outcome: 'ok',
          detail:
            synced === null
              ? 'The clocks agree (this computer cannot say whether NTP is on).'
              : "The clock is synchronised and agrees with the robot's.",
          values,
        };
      },
    },
  ];
}
