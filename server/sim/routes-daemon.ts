/** /api/daemon, /api/motors and /api/apps/job-status (docs/daemon.md, "Motors and lifecycle"). */
import type { SimContext } from './context.ts';
import { oneOf, str, type Errors } from './fields.ts';
import { daemonStatus } from './fixtures.ts';
import { readFlags } from './flags.ts';
import { DetailError, INTERNAL_ERROR, jsonBody, route, type Route, type SimRequest } from './http-kit.ts';
import type { JobCommand } from './lifecycle.ts';
import { requireObject } from './models.ts';
import { missing, ValidationError } from './pydantic.ts';
import { MOTOR_MODES, type MotorMode } from './world.ts';

/** Python ≥ 3.11 formats a str-Enum member in an f-string as its repr name (docs/daemon.md, "Motors and lifecycle"). */
const ENUM_REPR: Record<MotorMode, string> = {
  enabled: 'MotorControlMode.Enabled',
  disabled: 'MotorControlMode.Disabled',
  gravity_compensation: 'MotorControlMode.GravityCompensation',
};

function queryFlag(req: SimRequest, name: string): boolean {
  const { values, errors } = readFlags(req.query, { [name]: undefined } as Record<string, boolean | undefined>);
  if (errors.length > 0) throw new ValidationError(errors);
  return values[name] ?? false;
}

function job(ctx: SimContext, command: JobCommand, work: () => Promise<void>): { json: { job_id: string } } {
  const id = ctx.lifecycle.runJob(command, work);
  if (id === undefined) throw new DetailError(409, 'Daemon is busy.');
  return { json: { job_id: id } };
}

function parseRobotName(body: unknown): string {
  const b = requireObject(body);
  const errors: Errors = [];
  if (b.name === undefined) throw new ValidationError([missing(['body', 'name'], b)]);
  const name = str(b.name, ['body', 'name'], errors);
  if (name !== undefined && name.length < 1) {
    errors.push({
      type: 'string_too_short',
      loc: ['body', 'name'],
      msg: 'String should have at least 1 character',
      input: name,
      ctx: { min_length: 1 },
    });
  } else if (name !== undefined && name.length > 64) {
    errors.push({
      type: 'string_too_long',
      loc: ['body', 'name'],
      msg: 'String should have at most 64 characters',
      input: name,
      ctx: { max_length: 64 },
    });
  }
  if (errors.length > 0) throw new ValidationError(errors);
  return name ?? '';
}

export function daemonRoutes(ctx: SimContext): Route[] {
  const life = ctx.lifecycle;
  return [
    route('GET', '/api/daemon/status', () => ({ json: daemonStatus(ctx) })),
    route('POST', '/api/daemon/start', (req) => {
      const wakeUp = queryFlag(req, 'wake_up');
      return job(ctx, 'daemon-start', () => life.start(wakeUp));
    }),
    route('POST', '/api/daemon/stop', (req) => {
      const gotoSleep = queryFlag(req, 'goto_sleep');
      return job(ctx, 'daemon-stop', () => life.stop(gotoSleep));
    }),
    route('POST', '/api/daemon/restart', () => job(ctx, 'daemon-restart', () => life.restart())),
    route('GET', '/api/apps/job-status/{job_id}', (req) => {
      const id = req.params.job_id ?? '';
      // One register on the real daemon: daemon jobs and the app store's jobs alike.
      const info = life.job(id) ?? ctx.apps.jobs.get(id);
      if (!info) throw new DetailError(404, 'Job ID not found');
      return { json: { command: info.command, status: info.status, logs: [...info.logs] } };
    }),
    route('GET', '/api/daemon/robot-name', () => ({ json: { name: ctx.robotName } })),
    route('POST', '/api/daemon/robot-name', (req) => {
      ctx.robotName = parseRobotName(jsonBody(req));
      return { json: { name: ctx.robotName } };
    }),
    route('GET', '/api/daemon/hardware-id', () => ({ json: { hardware_id: null } })),
    // A lock set by a test (/sim/app-lock) wins; otherwise a running app holds the robot.
    route('GET', '/api/daemon/robot-app-lock-status', () => {
      if (ctx.appLock.state !== 'free') return { json: { ...ctx.appLock } };
      const holder = ctx.apps.lockHolder();
      return { json: holder ? { state: 'local_app', holder_name: holder } : { state: 'free', holder_name: null } };
    }),
    ...motorRoutes(ctx),
  ];
}

function motorRoutes(ctx: SimContext): Route[] {
  return [
    route('GET', '/api/motors/status', () => ({ json: { mode: ctx.world.mode } }), { backend: true }),
    route(
      'POST',
      '/api/motors/set_mode/{mode}',
      (req) => {
        const errors: Errors = [];
        const mode = oneOf(req.params.mode, ['path', 'mode'], errors, MOTOR_MODES);
        if (!mode) throw new ValidationError(errors);
        // Real robot, default AnalyticalKinematics: gravity compensation needs Placo and raises (docs/daemon.md, "Motors and lifecycle").
        if (ctx.world.realistic && mode === 'gravity_compensation') return INTERNAL_ERROR;
        ctx.world.setMode(mode);
        return { json: { status: `motors changed to ${ENUM_REPR[mode]} mode` } };
      },
      { backend: true },
    ),
  ];
}
