import { describe, expect, it } from 'vitest';
import { runTrayAction, saveLastMinutes, type TrayDeps } from './tray-actions.ts';

function fakeDeps(overrides: Partial<TrayDeps['control']> = {}) {
  const calls: string[] = [];
  const reports: string[] = [];
  const deps: TrayDeps = {
    control: {
      wake: async (c) => (calls.push(`wake ${c}`), { uuid: 'u1' }),
      sleep: async (c) => (calls.push(`sleep ${c}`), { uuid: 'u2' }),
      stop: async (c) => (
        calls.push(`stop ${c}`),
        {
          latched: true,
          movesStopped: 0,
          reelAborted: false,
          daemon: { ok: true },
          app: { name: null, stopped: false },
          stopped: [],
        }
      ),
      resume: (c) => (calls.push(`resume ${c}`), { latched: false, wasLatched: true }),
      demo: async (on, c) => (calls.push(`demo ${on} ${c}`), { on, personas: {} }),
      ...overrides,
    },
    openDashboard: () => calls.push('open'),
    openPairing: () => calls.push('pairing'),
    openPlatformSettings: () => calls.push('platform-settings'),
    platform: { connect: () => calls.push('connect'), disconnect: async () => void calls.push('disconnect') },
    copyRemoteAddress: () => calls.push('copy'),
    setOpenAtLogin: (on) => calls.push(`login ${on}`),
    quit: () => calls.push('quit'),
    report: (title, message) => reports.push(`${title}: ${message}`),
  };
  return { deps, calls, reports };
}

describe('runTrayAction', () => {
  it('calls the control functions as the desktop window', async () => {
    const { deps, calls, reports } = fakeDeps();
    for (const action of ['wake', 'sleep', 'stop', 'resume'] as const) await runTrayAction(action, deps);
    await runTrayAction('demo', deps, true);
    await runTrayAction('demo', deps, false);
    expect(calls).toEqual([
      'wake local-window',
      'sleep local-window',
      'stop local-window',
      'resume local-window',
      'demo true local-window',
      'demo false local-window',
    ]);
    expect(reports).toEqual([]);
  });

  it('runs the window, clipboard, login and quit items', async () => {
    const { deps, calls } = fakeDeps();
    await runTrayAction('open', deps);
    await runTrayAction('pairing', deps);
    await runTrayAction('copy-remote', deps);
    await runTrayAction('login', deps, true);
    await runTrayAction('quit', deps);
    expect(calls).toEqual(['open', 'pairing', 'copy', 'login true', 'quit']);
  });

  it('reports a refusal instead of throwing', async () => {
    const { deps, reports } = fakeDeps({
      wake: () => Promise.reject(new Error('stopped: resume from the dashboard first')),
    });
    await expect(runTrayAction('wake', deps)).resolves.toBeUndefined();
    expect(reports).toEqual(['Wake failed: stopped: resume from the dashboard first']);
  });

  it('says when the stop latched but the daemon part failed', async () => {
    const { deps, reports } = fakeDeps({
      stop: async () => ({
        latched: true,
        movesStopped: 0,
        reelAborted: false,
        daemon: { ok: false, error: 'ECONNREFUSED' },
        app: { name: null, stopped: false },
        stopped: [],
      }),
    });
    await runTrayAction('stop', deps);
    expect(reports).toEqual(['STOP latched, daemon call failed: ECONNREFUSED']);
  });
});

describe('platform link from the tray', () => {
  it('connects and disconnects through the platform client', async () => {
    const calls: string[] = [];
    const deps = {
      control: {
        wake: async () => ({ uuid: 'u' }),
        sleep: async () => ({ uuid: 'u' }),
        stop: async () => ({
          latched: true,
          movesStopped: 0,
          reelAborted: false,
          daemon: { ok: true },
          app: { name: null, stopped: false },
          stopped: [],
        }),
        resume: () => ({ latched: false, wasLatched: false }),
        demo: async () => ({ on: false, personas: {} }),
      },
      openDashboard: () => undefined,
      openPairing: () => undefined,
      openPlatformSettings: () => void calls.push('settings'),
      platform: { connect: () => void calls.push('connect'), disconnect: async () => void calls.push('disconnect') },
      copyRemoteAddress: () => undefined,
      setOpenAtLogin: () => undefined,
      quit: () => undefined,
      report: (title: string) => void calls.push(`report ${title}`),
    } as unknown as TrayDeps;
    await runTrayAction('platform-link', deps, false);
    await runTrayAction('platform-link', deps, true);
    await runTrayAction('platform-settings', deps);
    expect(calls).toEqual(['disconnect', 'connect', 'settings']);
  });
});

describe('save last minutes from the tray', () => {
  it('keeps the last five minutes (fewer on a shorter ring) and says where to find them', async () => {
    const { deps, reports } = fakeDeps();
    const asked: number[] = [];
    type Ring = Parameters<typeof saveLastMinutes>[0];
    const recorder = (maxMinutes: number): Ring => ({
      status: () => ({ maxMinutes }) as ReturnType<Ring['status']>,
      keepLast: async (minutes: number) => {
        asked.push(minutes);
        return { name: `Saved ${minutes}` } as Awaited<ReturnType<Ring['keepLast']>>;
      },
    });
    const through = (maxMinutes: number) => ({ saveLast: (minutes: number) => saveLastMinutes(recorder(maxMinutes), minutes) });
    await runTrayAction('save-recording', { ...deps, recordings: through(10) });
    await runTrayAction('save-recording', { ...deps, recordings: through(2) });
    expect(asked).toEqual([5, 2]);
    expect(reports).toEqual([
      "Recording saved: “Saved 5”: replay or download it in the dashboard's Black box card.",
      "Recording saved: “Saved 2”: replay or download it in the dashboard's Black box card.",
    ]);
  });

  it('reports a refusal (nothing recorded yet) instead of throwing', async () => {
    const { deps, reports } = fakeDeps();
    const recordings = { saveLast: () => Promise.reject(new Error('nothing has been recorded in that window yet')) };
    await runTrayAction('save-recording', { ...deps, recordings });
    expect(reports).toEqual(['Saving the recording failed: nothing has been recorded in that window yet']);
  });
});
