/** /api/state routes (docs/daemon.md, "State"). */
import type { SimContext } from './context.ts';
import { readFlags } from './flags.ts';
import { route, type Route, type SimRequest } from './http-kit.ts';
import { yawOf } from './pose.ts';
import { ValidationError } from './pydantic.ts';
import { FULL_STATE_FLAGS, fullState, wirePose } from './state-body.ts';

function flagsOf<K extends string>(req: SimRequest, defaults: Record<K, boolean | undefined>): Record<K, boolean> {
  const { values, errors } = readFlags(req.query, defaults);
  if (errors.length > 0) throw new ValidationError(errors);
  return values;
}

export function stateRoutes(ctx: SimContext): Route[] {
  const present = (): SimContext['world']['present'] => ctx.world.present;
  return [
    route('GET', '/api/state/full', (req) => ({ json: fullState(ctx, flagsOf(req, FULL_STATE_FLAGS)) }), {
      backend: true,
    }),
    route(
      'GET',
      '/api/state/present_head_pose',
      (req) => ({ json: wirePose(present().head, flagsOf(req, { use_pose_matrix: false }).use_pose_matrix) }),
      { backend: true },
    ),
    route('GET', '/api/state/present_body_yaw', () => ({ json: present().bodyYaw }), { backend: true }),
    route('GET', '/api/state/present_antenna_joint_positions', () => ({ json: [...present().antennas] }), {
      backend: true,
    }),
    // No IMU on a Lite robot or in the daemon's own simulators: null (docs/daemon.md).
    route('GET', '/api/state/imu', () => ({ json: null }), { backend: true }),
    route('GET', '/api/state/doa', () => ({ json: ctx.doa.read(ctx.monoS(), yawOf(present().head)) }), {
      backend: true,
    }),
  ];
}
