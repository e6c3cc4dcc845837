import { describe, expect, it } from 'vitest';
import type { DaemonInfo } from '../../../../server/contract/index.ts';
import { robotBadge, robotName } from './robot-identity.ts';

const daemon: DaemonInfo = {
  presence: 'connected',
  state: 'running',
  version: '1.2.0',
  robotName: 'reachy_mini',
  simulated: false,
  physics: null,
};

describe('robotBadge', () => {
  it('says Simulated robot for the simulator, whatever its version', () => {
    expect(robotBadge({ ...daemon, simulated: true })).toEqual({ kind: 'sim', label: 'Simulated robot', detail: null });
  });

  it('names the daemon version of a real robot', () => {
    expect(robotBadge(daemon)).toEqual({ kind: 'real', label: 'Real robot', detail: 'daemon 1.2.0' });
    expect(robotBadge({ ...daemon, version: null }).detail).toBe('daemon version unknown');
  });

  it("calls the robot's own daemon run without a robot simulated, and says how", () => {
    expect(robotBadge({ ...daemon, version: '1.13.0', physics: 'mockup' })).toEqual({
      kind: 'sim',
      label: 'Simulated robot',
      detail: 'daemon 1.13.0 · mockup',
    });
    expect(robotBadge({ ...daemon, version: '1.13.0', physics: 'mujoco' }).detail).toBe('daemon 1.13.0 · MuJoCo');
  });

  it('does not guess before the first state', () => {
    expect(robotBadge(null).kind).toBe('unknown');
  });
});

describe('robotName', () => {
  it.each([
    [daemon, 'reachy_mini'],
    [{ ...daemon, robotName: '  ' }, 'Robot Cockpit'],
    [{ ...daemon, robotName: null }, 'Robot Cockpit'],
    [null, 'Robot Cockpit'],
  ])('%j → %s', (info, name) => {
    expect(robotName(info)).toBe(name);
  });
});
