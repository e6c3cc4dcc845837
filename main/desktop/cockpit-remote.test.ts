/**
 * The shell side of the desktop link, without a process: calls fail fast while no server is
 * ready, replies are matched by id, pending calls fail when the process goes, and pushes reach
 * their listeners.
 */
import { describe, expect, it } from 'vitest';
import type { ToServer } from './cockpit-link.ts';
import { createCockpitRemote, NOT_RUNNING } from './cockpit-remote.ts';
import { snapshot } from './testing/snapshots.ts';

const READY = { kind: 'ready', port: 8097, host: '127.0.0.1', dataDir: '/d', simulated: true, daemonUrl: 'sim' } as const;

function attached() {
  const remote = createCockpitRemote();
  const sent: ToServer[] = [];
  remote.attach((message) => sent.push(message));
  return { remote, sent };
}

describe('createCockpitRemote', () => {
  it('refuses calls before a server is ready, at once and with a message', async () => {
    const { remote, sent } = attached();
    await expect(remote.control.stop('local-window')).rejects.toThrow(NOT_RUNNING);
    expect(sent).toEqual([]);
  });

  it('matches replies to calls by id, failures included', async () => {
    const { remote, sent } = attached();
    remote.receive(READY);
    const stop = remote.control.stop('local-window');
    const wake = remote.control.wake('local-window');
    expect(sent).toEqual([
      { kind: 'call', id: 1, call: { method: 'stop' } },
      { kind: 'call', id: 2, call: { method: 'wake' } },
    ]);
    remote.receive({ kind: 'reply', id: 2, ok: false, error: 'stopped: resume first' });
    remote.receive({ kind: 'reply', id: 1, ok: true, value: { daemon: { ok: true } } });
    await expect(stop).resolves.toEqual({ daemon: { ok: true } });
    await expect(wake).rejects.toThrow('stopped: resume first');
  });

  it('fails pending calls when the process goes, and takes the next one after its ready', async () => {
    const { remote } = attached();
    remote.receive(READY);
    const pending = remote.createWindowSession(60);
    remote.detach('the cockpit server stopped');
    await expect(pending).rejects.toThrow('the cockpit server stopped');
    const next: ToServer[] = [];
    remote.attach((message) => next.push(message));
    await expect(remote.destroySession('s')).rejects.toThrow(NOT_RUNNING);
    remote.receive(READY);
    void remote.destroySession('s');
    expect(next).toEqual([{ kind: 'call', id: 2, call: { method: 'destroy-session', id: 's' } }]);
  });

  it('hands pushes to their listeners and keeps the last snapshot and address', () => {
    const { remote } = attached();
    const seen: string[] = [];
    remote.onReady((ready) => seen.push(`ready ${ready.port}`));
    remote.onSnapshot(() => seen.push('snapshot'));
    remote.onNotice((n) => seen.push(`notice ${n.title}`));
    remote.onRelaunch(() => seen.push('relaunch'));
    remote.receive(READY);
    remote.receive({ kind: 'snapshot', snapshot: snapshot(), remoteAddress: 'http://192.168.1.2:8097' });
    remote.receive({ kind: 'notice', notification: { title: 'Hello', body: 'b' } as never });
    remote.receive({ kind: 'relaunch' });
    expect(seen).toEqual(['ready 8097', 'snapshot', 'notice Hello', 'relaunch']);
    expect(remote.lastSnapshot()).toEqual(snapshot());
    expect(remote.remoteAddress()).toBe('http://192.168.1.2:8097');
  });
});
