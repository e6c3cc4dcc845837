/** Bodies compared with the real daemon's recorded fixtures (docs/daemon.md, "Differential test and recorded fixtures"). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimDaemon, type SimDaemon } from './index.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { api, ok, shapeOf } from './test-helpers.ts';

const STATUS = JSON.parse(
  '{"type":"daemon_status","robot_name":"reachy_mini","state":"running","wireless_version":false,"desktop_app_daemon":false,"simulation_enabled":false,"mockup_sim_enabled":true,"no_media":true,"media_released":false,"camera_specs_name":"","backend_status":{"motor_control_mode":"enabled","error":null},"error":null,"wlan_ip":null,"version":"1.10.0.dev0","hardware_id":null,"face_target":{"detected":false,"x":null,"y":null,"roll":null,"ts":null}}',
) as Record<string, unknown>;
const FULL = JSON.parse(
  '{"control_mode":"enabled","head_pose":{"x":-5.11394939080278e-06,"y":-2.1046659652350357e-05,"z":2.1908048735419516e-05,"roll":0.0003043078574967552,"pitch":-5.28479829371431e-05,"yaw":-1.247582532922409e-08},"head_joints":null,"body_yaw":-0.0,"antennas_position":[-0.1745034459729955,0.1745034459729955],"timestamp":"2026-11-21T04:43:12.249137Z","passive_joints":null,"doa":null,"imu":null}',
) as Record<string, unknown>;
const FULL_JOINTS = {
  ...FULL,
  head_joints: [
    -0.0, 0.6266230449811265, -0.6266428762602492, 0.6265649025815231, -0.6265119428216596, 0.6264373427857027,
    -0.6264638580650389,
  ],
};
const FULL_MATRIX = {
  ...FULL,
  head_pose: {
    m: [
      1.00025, -2.85e-5, -5.48e-5, -5.11e-6, -2.85e-5, 1.0000084, -0.000433, -2.1e-5, 5.08e-5, 0.000174, 1.00024,
      2.19e-5, 0.0, 0.0, 0.0, 1.0,
    ],
  },
};
const CAMERA = JSON.parse(
  '{"name":"lite","available_resolutions":[{"name":"R1920x1080at60fps","width":1920,"height":1080,"fps":60,"crop_factor":1.115},{"name":"R3840x2592at30fps","width":3840,"height":2592,"fps":30,"crop_factor":1.0},{"name":"R3840x2160at30fps","width":3840,"height":2160,"fps":30,"crop_factor":1.109},{"name":"R3264x2448at30fps","width":3264,"height":2448,"fps":30,"crop_factor":1.115}],"default_resolution":{"name":"R1920x1080at60fps","width":1920,"height":1080,"fps":60,"crop_factor":1.115},"K":[[2001.8076426486707,0.0,1905.876059826701],[0.0,2003.0778885944105,1328.3239717935594],[0.0,0.0,1.0]],"D":[-1.4652320301298614,0.6542714131667414,0.012147809271745049,-0.002677286460143648,0.3035939941825349,-1.4300809080461876,0.570024082887235,0.3567299243352951,0.003057363348400015,0.0003357614008682464,-0.009897126394310923,-0.002050919484589521]}',
) as unknown;

let sim: SimDaemon;
beforeAll(async () => {
  sim = await startSimDaemon();
});
afterAll(() => sim.close());

describe('read-only bodies have the real keys, order and value types', () => {
  it('daemon status', async () => {
    const status = await ok(sim, 'GET', '/api/daemon/status');
    expect(shapeOf(status)).toEqual(shapeOf(STATUS));
    expect(status).toMatchObject({
      mockup_sim_enabled: true,
      version: '1.10.0.dev0',
      robot_name: 'reachy_mini',
      state: 'running',
    });
  });

  it('state full: default, with flags (targets dropped) and as a matrix', async () => {
    const plain = await ok(sim, 'GET', '/api/state/full');
    expect(shapeOf(plain)).toEqual(shapeOf(FULL));
    expect(String(plain.timestamp)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const flagged = await ok(
      sim,
      'GET',
      '/api/state/full?with_head_joints=true&with_doa=true&with_passive_joints=true&with_target_head_pose=true&with_target_head_joints=true&with_target_body_yaw=true&with_target_antenna_positions=true',
    );
    expect(shapeOf({ ...flagged, doa: null })).toEqual(shapeOf(FULL_JOINTS));
    expect(shapeOf(await ok(sim, 'GET', '/api/state/full?use_pose_matrix=true'))).toEqual(shapeOf(FULL_MATRIX));
    const off = await ok(
      sim,
      'GET',
      '/api/state/full?with_control_mode=0&with_head_pose=no&with_body_yaw=off&with_antenna_positions=false',
    );
    expect(off).toMatchObject({ control_mode: null, head_pose: null, body_yaw: null, antennas_position: null });
  });

  it('state full rejects a non-boolean flag with 422', async () => {
    const r = await api(sim, 'GET', '/api/state/full?with_doa=maybe');
    expect(r.status).toBe(422);
    expect(r.json).toEqual({
      detail: [
        {
          type: 'bool_parsing',
          loc: ['query', 'with_doa'],
          msg: 'Input should be a valid boolean, unable to interpret input',
          input: 'maybe',
        },
      ],
    });
  });

  it('small state routes return bare values', async () => {
    expect(shapeOf(await ok(sim, 'GET', '/api/state/present_head_pose'))).toEqual(shapeOf(FULL.head_pose));
    expect((await ok<{ m: number[] }>(sim, 'GET', '/api/state/present_head_pose?use_pose_matrix=true')).m).toHaveLength(
      16,
    );
    expect(typeof (await ok<number>(sim, 'GET', '/api/state/present_body_yaw'))).toBe('number');
    expect(await ok(sim, 'GET', '/api/state/present_antenna_joint_positions')).toEqual([-0.1745, 0.1745]);
  });

  it('motors, kinematics, camera, media and misc', async () => {
    expect(await ok(sim, 'GET', '/api/motors/status')).toEqual({ mode: 'enabled' });
    expect(await ok(sim, 'GET', '/api/kinematics/info')).toEqual({
      info: { engine: 'AnalyticalKinematics', 'collision check': false },
    });
    expect(await ok(sim, 'GET', '/api/camera/specs')).toEqual(CAMERA);
    expect(await ok(sim, 'GET', '/api/daemon/robot-app-lock-status')).toEqual({ state: 'free', holder_name: null });
    expect(await ok(sim, 'GET', '/api/daemon/hardware-id')).toEqual({ hardware_id: null });
    expect(await ok(sim, 'GET', '/api/media/sounds')).toEqual({ files: [] });
    expect(await ok(sim, 'POST', '/health-check')).toEqual({ status: 'ok' });
    expect(await api(sim, 'GET', '/api/nope')).toMatchObject({ status: 404, json: { detail: 'Not Found' } });
  });
});

describe('motion and error bodies', () => {
  it('set_mode answers with the enum repr and 422 for a bad mode', async () => {
    expect(await ok(sim, 'POST', '/api/motors/set_mode/disabled')).toEqual({
      status: 'motors changed to MotorControlMode.Disabled mode',
    });
    expect(await ok(sim, 'POST', '/api/motors/set_mode/enabled')).toEqual({
      status: 'motors changed to MotorControlMode.Enabled mode',
    });
    const bad = await api(sim, 'POST', '/api/motors/set_mode/limp');
    expect(bad.status).toBe(422);
    expect(bad.json).toEqual({
      detail: [
        {
          type: 'enum',
          loc: ['path', 'mode'],
          msg: "Input should be 'enabled', 'disabled' or 'gravity_compensation'",
          input: 'limp',
          ctx: { expected: "'enabled', 'disabled' or 'gravity_compensation'" },
        },
      ],
    });
  });

  it('goto returns a uuid listed in running, set_target is ignored meanwhile, stop cancels it', async () => {
    const { uuid } = await ok<{ uuid: string }>(sim, 'POST', '/api/move/goto', {
      head_pose: { yaw: 0.2 },
      duration: 3,
    });
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await ok(sim, 'GET', '/api/move/running')).toEqual([{ uuid }]);
    expect(await ok(sim, 'POST', '/api/move/set_target', { target_antennas: [0, 0] })).toEqual({
      status: 'ignored',
      reason: 'move_running',
    });
    expect(await ok(sim, 'POST', '/api/move/stop', { uuid })).toEqual({ message: `Stopped move with UUID: ${uuid}` });
    expect(await ok(sim, 'GET', '/api/move/running')).toEqual([]);
    expect(await ok(sim, 'POST', '/api/move/set_target', {})).toEqual({ status: 'ok' });
  });

  it('stop: unknown uuid is a 500 text/plain, a malformed one a 422', async () => {
    const unknown = await api(sim, 'POST', '/api/move/stop', { uuid: '712e91ea-4283-4d4a-858c-c976fa6bb3dd' });
    expect(unknown.status).toBe(500);
    expect(unknown.contentType).toMatch(/^text\/plain/);
    expect(unknown.text).toBe('Internal Server Error');
    const malformed = await api(sim, 'POST', '/api/move/stop', { uuid: 'not-a-uuid' });
    expect(malformed.json).toEqual({
      detail: [
        {
          type: 'uuid_parsing',
          loc: ['body', 'uuid'],
          msg: 'Input should be a valid UUID, invalid character: found `n` at 0',
          input: 'not-a-uuid',
          ctx: { error: 'invalid character: found `n` at 0' },
        },
      ],
    });
  });

  it('goto validation bodies match docs/daemon.md, "Differential test and recorded fixtures"', async () => {
    const noDuration = await api(sim, 'POST', '/api/move/goto', { antennas: [0.0, 0.0] });
    expect(noDuration.status).toBe(422);
    expect(noDuration.json).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'duration'], msg: 'Field required', input: { antennas: [0, 0] } }],
    });
    const bogus = await api(sim, 'POST', '/api/move/goto', { duration: 1, interpolation: 'bogus' });
    expect(bogus.json).toEqual({
      detail: [
        {
          type: 'enum',
          loc: ['body', 'interpolation'],
          msg: "Input should be 'linear', 'minjerk', 'ease_in_out' or 'cartoon'",
          input: 'bogus',
          ctx: { expected: "'linear', 'minjerk', 'ease_in_out' or 'cartoon'" },
        },
      ],
    });
    const badJson = await api(sim, 'POST', '/api/move/goto', '{"duration": ');
    expect(badJson.status).toBe(422);
    expect(badJson.json).toMatchObject({ detail: [{ type: 'json_invalid' }] });
  });

  it('a duration ≤ 0 goto returns a uuid, completes and moves nothing', async () => {
    // A manual clock: the control loop runs the ticks the test asks for, no more and no fewer.
    const clock = createManualClock();
    const still = await startSimDaemon({ clock });
    try {
      const before = await ok(still, 'GET', '/api/state/present_head_pose');
      const { uuid } = await ok<{ uuid: string }>(still, 'POST', '/api/move/goto', {
        head_pose: { yaw: 0.5 },
        duration: 0,
      });
      expect(uuid).toBeTruthy();
      // One tick completes it; three more show the body did not move.
      clock.advance(20);
      expect(await ok<unknown[]>(still, 'GET', '/api/move/running')).toEqual([]);
      clock.advance(60);
      expect(await ok(still, 'GET', '/api/state/present_head_pose')).toEqual(before);
    } finally {
      await still.close();
    }
  });

  it('volume: answers the real shape and rejects out-of-range values', async () => {
    expect(shapeOf(await ok(sim, 'GET', '/api/volume/current'))).toEqual(
      shapeOf({ volume: 70, platform: 'Linux', device: 'x' }),
    );
    const high = await api(sim, 'POST', '/api/volume/set', { volume: 155 });
    expect(high.status).toBe(422);
    expect(high.json).toEqual({
      detail: [
        {
          type: 'less_than_equal',
          loc: ['body', 'volume'],
          msg: 'Input should be less than or equal to 100',
          input: 155,
          ctx: { le: 100 },
        },
      ],
    });
    const low = await api(sim, 'POST', '/api/volume/set', { volume: -1 });
    expect(low.json).toMatchObject({ detail: [{ type: 'greater_than_equal', ctx: { ge: 0 } }] });
    expect(await ok(sim, 'POST', '/api/volume/set', { volume: 40 })).toMatchObject({ volume: 40 });
    expect(await ok(sim, 'GET', '/api/volume/current')).toMatchObject({ volume: 40 });
    expect(sim.counters().soundsPlayed.at(-1)).toMatchObject({ file: 'impatient1.wav', seconds: 0.902 });
  });

  it('daemon stop needs its query parameter', async () => {
    const r = await api(sim, 'POST', '/api/daemon/stop');
    expect(r.status).toBe(422);
    expect(r.json).toEqual({
      detail: [{ type: 'missing', loc: ['query', 'goto_sleep'], msg: 'Field required', input: null }],
    });
    const s = await api(sim, 'POST', '/api/daemon/start');
    expect(s.json).toEqual({
      detail: [{ type: 'missing', loc: ['query', 'wake_up'], msg: 'Field required', input: null }],
    });
  });
});
