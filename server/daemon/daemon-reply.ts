/**
 * The daemon's answers turned into values or app errors, for every module that calls it (the
 * daemon client and its apps part): its error bodies come in three shapes (docs/daemon.md,
 * "The protocol as the cockpit uses it").
 */
import { AppError } from '../errors.ts';
import type { DaemonResponse } from './http-transport.ts';

/** Maps the daemon's three error shapes (docs/daemon.md, "Duties of the cockpit") to app errors; returns the body on 2xx. */
export function ok(res: DaemonResponse, what: string): unknown {
  if (res.status >= 200 && res.status < 300) return res.body;
  const detail = detailOf(res.body);
  if (res.status === 503 && /backend not running/i.test(detail)) {
    throw new AppError('DAEMON_STOPPED', 'the robot daemon backend is not running');
  }
  // The daemon's local-network guard (1.13) takes only IP literals, localhost and .local names.
  if (res.status === 400 && detail === 'Untrusted Host header') {
    throw new AppError(
      'DAEMON_ERROR',
      'the robot daemon refuses this host name (its DNS-rebinding guard): set ROBOT_DAEMON_URL to its IP address or its .local name',
    );
  }
  throw new AppError('DAEMON_ERROR', `daemon refused ${what} (${res.status}): ${detail}`);
}

function detailOf(body: unknown): string {
  if (typeof body === 'string') return body.slice(0, 200) || 'no detail';
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) return detail.map(problemOf).join('; ').slice(0, 500);
  return 'no detail';
}

/** One pydantic problem, `{loc: [...], msg}`; a daemon gone wrong may send anything in its place. */
function problemOf(problem: unknown): string {
  const { loc, msg } = (typeof problem === 'object' && problem !== null ? problem : {}) as {
    loc?: unknown;
    msg?: unknown;
  };
  const where = Array.isArray(loc) ? loc.map(String).join('.') : '';
  return `${where}: ${typeof msg === 'string' ? msg : 'invalid'}`;
}
