import { describe, expect, it } from 'vitest';
import { describeCamera, pictureState, socketPathFailed, type CameraFacts } from './camera-status.ts';

const base: CameraFacts = { socket: 'connected', health: 'live', configured: true, picture: 'fresh', staleSeconds: 0 };

describe('describeCamera', () => {
  it('is live while pictures arrive, whatever the last health said', () => {
    expect(describeCamera({ ...base, health: 'starting' })).toEqual({ tone: 'ok', label: 'Live', notice: null });
  });

  it('explains every gap honestly', () => {
    expect(describeCamera({ ...base, picture: 'none' }).notice).toBe('Waiting for the first picture…');
    expect(describeCamera({ ...base, picture: 'stale', staleSeconds: 3.4 }).notice).toBe('No new picture for 3 s.');
    expect(describeCamera({ ...base, picture: 'stale', health: 'lost' }).label).toBe('Camera lost');
    expect(describeCamera({ ...base, picture: 'none', health: 'starting' }).label).toBe('Starting');
    expect(describeCamera({ ...base, picture: 'none', health: 'off' }).label).toBe('Camera off');
    expect(describeCamera({ ...base, picture: 'none', health: null }).label).toBe('Waiting');
  });

  it('says what the cockpit says is wrong: no camera at all, or why it does not start', () => {
    const absent = 'the robot daemon runs without media (no_media): it has no camera';
    expect(describeCamera({ ...base, picture: 'none', health: 'off', absent })).toEqual({
      tone: 'idle',
      label: 'No camera',
      notice: 'The robot daemon runs without media (no_media): it has no camera.',
    });
    const trouble = 'the camera did not start: signalling ws://127.0.0.1:8000/webrtc: connect ECONNREFUSED';
    expect(describeCamera({ ...base, picture: 'none', health: 'starting', trouble })).toEqual({
      tone: 'bad',
      label: 'Not starting',
      notice: 'The camera did not start: signalling ws://127.0.0.1:8000/webrtc: connect ECONNREFUSED. Trying again…',
    });
    expect(
      describeCamera({ ...base, picture: 'stale', health: 'lost', trouble: 'the camera failed: gone' }).notice,
    ).toBe('The camera stopped sending pictures (the camera failed: gone); the cockpit is getting it back.');
  });

  it('puts a missing camera and a lost socket first', () => {
    expect(describeCamera({ ...base, configured: false }).label).toBe('No camera');
    expect(describeCamera({ ...base, socket: 'reconnecting' })).toMatchObject({
      tone: 'bad',
      notice: 'Not connected: this is the last picture.',
    });
  });
});

describe('pictureState', () => {
  it('is none, fresh, then stale', () => {
    expect(pictureState(null, 1000)).toBe('none');
    expect(pictureState(1000, 2500)).toBe('fresh');
    expect(pictureState(1000, 3500)).toBe('stale');
  });
});

describe('socketPathFailed', () => {
  it('fails over only when the camera is live and the socket brings nothing', () => {
    const asked = { askedAt: 1000, lastFrameAt: null, health: 'live' as const };
    expect(socketPathFailed({ ...asked, now: 4000 })).toBe(false);
    expect(socketPathFailed({ ...asked, now: 5500 })).toBe(true);
    expect(socketPathFailed({ ...asked, health: 'starting', now: 9000 })).toBe(false);
    expect(socketPathFailed({ ...asked, askedAt: null, now: 9000 })).toBe(false);
    expect(socketPathFailed({ ...asked, lastFrameAt: 5000, now: 5500 })).toBe(false);
  });
});
