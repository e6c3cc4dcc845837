/**
 * Helpers for tests of the composed console (compose*.test.ts): a console on the simulator with
 * a fresh data dir, and a dashboard that talks to it over HTTP and /ws, keeping every answer so
 * a test can check that no secret ever came back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { createLog } from '../../server/index.ts';
import type { Scheduler } from '../../platform-client/index.ts';
import { composeCockpit, type ComposeOptions, type ComposedCockpit } from '../compose.ts';
import { holdsEventually, testWait } from '../../server/testing/eventually.ts';

export const OWNER = 'compose-test-owner-token-0123456789';
export const TIMING = { heartbeatMs: 300, pollMs: 100 };

const dirs: string[] = [];

/** A console on the built-in simulator; its data dir is removed by removeDataDirs(). */
export function composeForTest(
  env: Record<string, string> = {},
  extra: Partial<Omit<ComposeOptions, 'flags' | 'env'>> = {},
): Promise<ComposedCockpit> {
  const dataDir = mkdtempSync(join(tmpdir(), 'compose-test-'));
  dirs.push(dataDir);
  return composeCockpit({
    flags: { sim: true, port: '0', host: '127.0.0.1', dataDir },
    env: {
      ROBOT_TOKEN: OWNER,
      ROBOT_HTTPS_PORT: '0',
      ROBOT_TRACK_AUTOSTART: '0',
      ROBOT_THINKER_INTERVAL: '3600',
      ROBOT_RATE_LIMIT: '1000',
      ...env,
    },
    log: () => createLog({ sink: () => {} }),
    platformTiming: TIMING,
    ...extra,
  });
}

/** A real-time scheduler that knows what it still owes: timers not yet fired and callbacks still running. */
export interface CountingScheduler extends Scheduler {
  /** Timers waiting plus fired callbacks whose promise has not settled. */
  outstanding(): number;
}

/**
 * The platform client's scheduler for tests that must prove the client went quiet: once
 * outstanding() is 0 nothing is scheduled or in flight, so no request can follow on its own.
 */
export function countingScheduler(): CountingScheduler {
  let waiting = 0;
  let running = 0;
  return {
    now: () => Date.now(),
    after(ms, fn) {
      waiting += 1;
      let pending = true;
      const handle = setTimeout(() => {
        pending = false;
        waiting -= 1;
        running += 1;
        void Promise.resolve()
          .then(fn)
          .catch(() => undefined)
          .finally(() => (running -= 1));
      }, ms);
      handle.unref();
      return () => {
        if (pending) waiting -= 1;
        pending = false;
        clearTimeout(handle);
      };
    },
    outstanding: () => waiting + running,
  };
}

export function removeDataDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<boolean> {
  return holdsEventually(predicate, { timeoutMs: testWait(timeoutMs), intervalMs: 50 });
}

/** Talks to the cockpit as the dashboard does, keeping every answer so a token can be looked for. */
export function dashboard(base: ComposedCockpit) {
  const seen: string[] = [];
  const frames: Record<string, unknown>[] = [];
  const ws = new WebSocket(`${base.cockpit.url.replace('http', 'ws')}/ws?token=${OWNER}`);
  ws.on('message', (d) => {
    seen.push(String(d));
    frames.push(JSON.parse(String(d)) as Record<string, unknown>);
  });
  return {
    seen,
    frames,
    opened: new Promise((resolve) => ws.once('open', resolve)),
    close: () => ws.close(),
    async call(method: string, path: string, body?: unknown) {
      const res = await fetch(`${base.cockpit.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${OWNER}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      seen.push(text);
      return { status: res.status, json: JSON.parse(text) as Record<string, unknown> };
    },
  };
}
