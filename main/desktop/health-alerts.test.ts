import { describe, expect, it } from 'vitest';
import { createHealthAlerts, stoppedBy } from './health-alerts.ts';
import { snapshot, UNREACHABLE } from './testing/snapshots.ts';
import type { CockpitSnapshot } from './tray-model.ts';

/** Feeds one snapshot per second and collects the titles raised at each time. */
function run(steps: Array<[number, CockpitSnapshot]>) {
  const alerts = createHealthAlerts({ daemonAfterMs: 30_000, cameraAfterMs: 5_000 });
  return steps.flatMap(([t, s]) => alerts.observe(s, t * 1000).map((n) => `${t}s ${n.title}`));
}

const seconds = (from: number, to: number, s: CockpitSnapshot): Array<[number, CockpitSnapshot]> =>
  Array.from({ length: to - from + 1 }, (_, i) => [from + i, s]);

describe('daemon alerts', () => {
  it('says nothing when the daemon comes back within 30 s', () => {
    expect(
      run([...seconds(0, 5, snapshot()), ...seconds(6, 34, snapshot(UNREACHABLE)), ...seconds(35, 40, snapshot())]),
    ).toEqual([]);
  });

  it('raises once after 30 s unreachable and says when it is back', () => {
    expect(
      run([...seconds(0, 5, snapshot()), ...seconds(6, 90, snapshot(UNREACHABLE)), ...seconds(91, 95, snapshot())]),
    ).toEqual(['36s Robot daemon unreachable', '91s Robot daemon back']);
  });

  it('counts from the start when the daemon never answered', () => {
    expect(run(seconds(0, 31, snapshot(UNREACHABLE)))).toEqual(['30s Robot daemon unreachable']);
  });

  it('starts counting again after a recovery', () => {
    const flapping = [
      ...seconds(0, 20, snapshot(UNREACHABLE)),
      [21, snapshot()] as [number, CockpitSnapshot],
      ...seconds(22, 52, snapshot(UNREACHABLE)),
    ];
    expect(run(flapping)).toEqual(['52s Robot daemon unreachable']);
  });

  it('names the daemon address of a real robot, and urges attention', () => {
    const alerts = createHealthAlerts({ daemonAfterMs: 1000, cameraAfterMs: 1000 });
    const down = snapshot({
      ...UNREACHABLE,
      daemon: { ...UNREACHABLE.daemon, simulated: false, url: 'http://127.0.0.1:8000' },
    });
    alerts.observe(down, 0);
    expect(alerts.observe(down, 1000)).toEqual([
      {
        tag: 'daemon',
        title: 'Robot daemon unreachable',
        body: 'No answer from http://127.0.0.1:8000 for over 1 s.',
        urgent: true,
      },
    ]);
  });
});

describe('camera alerts', () => {
  it('raises after 5 s lost, not for a shorter gap, and says when it is back', () => {
    const lost = snapshot({ camera: 'lost' });
    expect(
      run([
        ...seconds(0, 2, snapshot()),
        ...seconds(3, 6, lost),
        ...seconds(7, 8, snapshot()),
        ...seconds(9, 20, lost),
        [21, snapshot()],
      ]),
    ).toEqual(['14s Camera lost', '21s Camera back']);
  });

  it('ignores a camera that is off or starting', () => {
    expect(
      run([...seconds(0, 20, snapshot({ camera: 'off' })), ...seconds(21, 40, snapshot({ camera: 'starting' }))]),
    ).toEqual([]);
  });
});

describe('stop alerts', () => {
  const stoppedByKind = (kind: string) => ({
    ...snapshot({ stopped: true }),
    stop: {
      state: 'running' as const,
      detail: `stopped by ${kind} at 2026-11-21T06:00:00.000Z; resume from the dashboard`,
    },
  });

  it('tells when another client engages the stop, once', () => {
    expect(
      run([
        [0, snapshot()],
        [1, stoppedByKind('passkey')],
        [2, stoppedByKind('passkey')],
        [3, snapshot()],
      ]),
    ).toEqual(['1s STOP engaged']);
  });

  it('stays quiet when the desktop app itself (tray or window) engaged it', () => {
    expect(
      run([
        [0, snapshot()],
        [1, stoppedByKind('local-window')],
      ]),
    ).toEqual([]);
  });

  it('does not alert for a stop already engaged at the first look', () => {
    expect(
      run([
        [0, stoppedByKind('token')],
        [1, stoppedByKind('token')],
      ]),
    ).toEqual([]);
  });

  it('names who stopped it', () => {
    const alerts = createHealthAlerts();
    alerts.observe(snapshot(), 0);
    expect(alerts.observe(stoppedByKind('token'), 1000)[0]?.body).toBe(
      'A client with the owner token engaged the latched stop. Resume from the dashboard or the tray.',
    );
  });
});

describe('stoppedBy', () => {
  it.each([
    ['stopped by passkey at 2026-11-21T06:00:00.000Z; resume from the dashboard', 'passkey'],
    ['stopped by local-window at 2026-11-21T06:00:00.000Z; resume', 'local-window'],
    ['stopped by martians at noon', undefined],
    ['not engaged', undefined],
    [undefined, undefined],
  ])('%s → %s', (detail, kind) => {
    expect(stoppedBy(detail)).toBe(kind);
  });
});
