/** The server's restarts as the tray and the notifications tell them. */
import { describe, expect, it } from 'vitest';
import { restartNotice, serverSnapshot, withServer } from './server-status.ts';
import { snapshot } from './testing/snapshots.ts';
import { healthVerdict, serverLabel, trayMenu, type MenuEntry } from './tray-model.ts';

const killed = { pid: 42, code: null, signal: 'SIGKILL' };

describe('serverSnapshot', () => {
  it('follows the loop: running, restarting, starting again, running again', () => {
    const first = serverSnapshot({ kind: 'running', restarts: 0, pid: 42, info: {} });
    expect(first).toEqual({ restarting: false, restarts: 0, lastExit: null });
    const down = serverSnapshot({ kind: 'restarting', restarts: 1, delayMs: 250, exit: killed }, first);
    expect(down).toEqual({ restarting: true, restarts: 1, lastExit: 'signal SIGKILL' });
    const starting = serverSnapshot({ kind: 'starting', restarts: 1 }, down);
    expect(starting).toEqual({ restarting: true, restarts: 1, lastExit: 'signal SIGKILL' });
    expect(serverSnapshot({ kind: 'running', restarts: 1, pid: 43, info: {} }, starting)).toEqual({
      restarting: false,
      restarts: 1,
      lastExit: 'signal SIGKILL',
    });
  });
});

describe('the tray while and after the server restarts', () => {
  const restarting = withServer(snapshot(), { restarting: true, restarts: 1, lastExit: 'exit code 70' });
  const restarted = withServer(snapshot(), { restarting: false, restarts: 2, lastExit: 'signal SIGKILL' });

  it('is red while the server restarts, whatever its last snapshot said', () => {
    expect(healthVerdict(restarting)).toEqual({ tone: 'stopped', reasons: ['cockpit server restarting'] });
    expect(healthVerdict(restarted).tone).toBe('ok');
  });

  it('adds a status line, and greys out moves but never STOP', () => {
    const menu = trayMenu({ snapshot: restarting, openAtLogin: undefined, remoteUrl: undefined });
    expect(menu[1]).toEqual({ type: 'status', label: 'Server stopped (last: exit code 70); restarting…' });
    const item = (action: string) =>
      menu.find((e): e is Extract<MenuEntry, { action: unknown }> => 'action' in e && e.action === action);
    expect(item('wake')?.enabled).toBe(false);
    expect(item('stop')?.enabled).toBe(true);
    expect(serverLabel(restarted.server)).toBe('Server restarted 2 times (last: signal SIGKILL)');
    expect(serverLabel({ restarting: false, restarts: 0, lastExit: null })).toBeNull();
    expect(trayMenu({ snapshot: snapshot(), openAtLogin: undefined, remoteUrl: undefined })[1]).toMatchObject({ type: 'action', action: 'open' });
  });

  it('notifies a restart, and nothing else', () => {
    expect(restartNotice({ kind: 'restarting', restarts: 1, delayMs: 250, exit: killed })).toMatchObject({
      tag: 'server-restart',
      title: 'Cockpit server restarted',
      body: expect.stringContaining('signal SIGKILL'),
    });
    expect(restartNotice({ kind: 'running', restarts: 1, pid: 1, info: {} })).toBeNull();
  });
});
