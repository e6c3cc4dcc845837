/**
 * The requests the differential test and `npm run record-fixtures` send to a daemon: every daemon
 * route the cockpit or its simulator implements, with good and bad input. They run in this order
 * on one daemon (some move the robot). `env` marks answers that depend on how the daemon was
 * started rather than on its code: the real daemon runs with `--no-media` and without the Hugging
 * Face hub, the simulator has media and a built-in move library. Those are recorded, not compared.
 * The app store routes beyond current-app-status and startup-app are not in the simulator yet;
 * the real daemon's answers to them are proved in contract-read.real.test.ts.
 */
export type ProbeEnv = 'media' | 'hub';

export interface ProbeCase {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: unknown;
  /** Extra request headers (the local-network guard's Host and Origin checks). */
  headers?: Record<string, string>;
  env?: ProbeEnv;
}

const EMOTIONS = 'pollen-robotics/reachy-mini-emotions-library';
const A_UUID = '00000000-0000-4000-8000-000000000000';

export const PROBE_CASES: readonly ProbeCase[] = [
  { name: 'status', method: 'GET', path: '/api/daemon/status' },
  { name: 'robot name', method: 'GET', path: '/api/daemon/robot-name' },
  { name: 'hardware id', method: 'GET', path: '/api/daemon/hardware-id' },
  { name: 'app lock', method: 'GET', path: '/api/daemon/robot-app-lock-status' },
  { name: 'state full', method: 'GET', path: '/api/state/full' },
  { name: 'state full, joints and imu', method: 'GET', path: '/api/state/full?with_head_joints=true&with_imu=true&with_passive_joints=true' },
  { name: 'state full, matrix', method: 'GET', path: '/api/state/full?use_pose_matrix=true' },
  { name: 'state full, bad flag', method: 'GET', path: '/api/state/full?with_doa=maybe' },
  { name: 'state full, doa', method: 'GET', path: '/api/state/full?with_doa=true', env: 'media' },
  { name: 'head pose', method: 'GET', path: '/api/state/present_head_pose' },
  { name: 'body yaw', method: 'GET', path: '/api/state/present_body_yaw' },
  { name: 'antennas', method: 'GET', path: '/api/state/present_antenna_joint_positions' },
  { name: 'doa', method: 'GET', path: '/api/state/doa', env: 'media' },
  { name: 'imu', method: 'GET', path: '/api/state/imu' },
  { name: 'motors status', method: 'GET', path: '/api/motors/status' },
  { name: 'running moves', method: 'GET', path: '/api/move/running' },
  { name: 'kinematics', method: 'GET', path: '/api/kinematics/info' },
  { name: 'camera specs', method: 'GET', path: '/api/camera/specs' },
  { name: 'media status', method: 'GET', path: '/api/media/status', env: 'media' },
  { name: 'sounds', method: 'GET', path: '/api/media/sounds' },
  { name: 'volume', method: 'GET', path: '/api/volume/current', env: 'media' },
  { name: 'microphone volume', method: 'GET', path: '/api/volume/microphone/current', env: 'media' },
  { name: 'face', method: 'GET', path: '/api/media/tracking/face' },
  { name: 'current app', method: 'GET', path: '/api/apps/current-app-status' },
  { name: 'startup app', method: 'GET', path: '/api/apps/startup-app' },
  { name: 'unknown job', method: 'GET', path: '/api/apps/job-status/no-such-job' },
  { name: 'move list', method: 'GET', path: `/api/move/recorded-move-datasets/list/${EMOTIONS}`, env: 'hub' },
  { name: 'unknown route', method: 'GET', path: '/api/daemon/no-such-route' },
  { name: 'untrusted host', method: 'GET', path: '/api/motors/status', headers: { host: 'robot.example' } },
  { name: 'local host name', method: 'GET', path: '/api/motors/status', headers: { host: 'reachy-mini.local:8000' } },
  { name: 'cross-origin write', method: 'POST', path: '/api/motors/set_mode/enabled', headers: { origin: 'http://evil.example' } },
  { name: 'cross-origin read', method: 'GET', path: '/api/motors/status', headers: { origin: 'http://evil.example' } },
  { name: 'private-network write', method: 'POST', path: '/api/motors/set_mode/enabled', headers: { origin: 'http://192.168.1.20:5173' } },
  { name: 'wrong method', method: 'POST', path: '/api/daemon/status' },
  { name: 'goto', method: 'POST', path: '/api/move/goto', body: { head_pose: { x: 0, y: 0, z: 0, roll: 0, pitch: 0.1, yaw: 0.2 }, antennas: [0.3, -0.3], body_yaw: 0.1, duration: 0.3 } },
  { name: 'goto, zero duration', method: 'POST', path: '/api/move/goto', body: { antennas: [0.1, -0.1], duration: 0 } },
  { name: 'goto, bad duration', method: 'POST', path: '/api/move/goto', body: { duration: 'x' } },
  { name: 'goto, no body', method: 'POST', path: '/api/move/goto' },
  { name: 'goto, bad interpolation', method: 'POST', path: '/api/move/goto', body: { duration: 1, interpolation: 'wobbly' } },
  { name: 'set target', method: 'POST', path: '/api/move/set_target', body: { target_antennas: [0.1, 0.1] } },
  { name: 'set target, empty', method: 'POST', path: '/api/move/set_target', body: {} },
  { name: 'stop, not a uuid', method: 'POST', path: '/api/move/stop', body: { uuid: 'nope' } },
  { name: 'stop, unknown uuid', method: 'POST', path: '/api/move/stop', body: { uuid: A_UUID } },
  { name: 'motor mode, bad', method: 'POST', path: '/api/motors/set_mode/sideways' },
  { name: 'motor mode, enabled', method: 'POST', path: '/api/motors/set_mode/enabled' },
  { name: 'tracking on', method: 'POST', path: '/api/media/tracking/enable', body: {}, env: 'media' },
  { name: 'tracking off', method: 'POST', path: '/api/media/tracking/disable' },
  { name: 'wobbling on', method: 'POST', path: '/api/media/wobbling/enable' },
  { name: 'wobbling off', method: 'POST', path: '/api/media/wobbling/disable' },
  { name: 'volume set', method: 'POST', path: '/api/volume/set', body: { volume: 50 }, env: 'media' },
  { name: 'volume set, bad', method: 'POST', path: '/api/volume/set', body: { volume: 'loud' } },
  { name: 'play sound, missing file', method: 'POST', path: '/api/media/play_sound', body: { file: 'no-such-sound.wav' }, env: 'media' },
  { name: 'stop sound', method: 'POST', path: '/api/media/stop_sound', env: 'media' },
  { name: 'robot name, empty', method: 'POST', path: '/api/daemon/robot-name', body: { name: '' } },
  { name: 'play move', method: 'POST', path: `/api/move/play/recorded-move-dataset/${EMOTIONS}/cheerful1`, env: 'hub' },
  { name: 'delete missing sound', method: 'DELETE', path: '/api/media/sounds/no-such-sound.wav' },
];
