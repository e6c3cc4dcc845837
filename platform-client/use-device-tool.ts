/**
 * The use_device tool the console's agent runtime registers: list the
 * owner's devices, invoke another device through the relay and wait up to 45 s for its reply
 * (then hand back a pending ticket), and redeem a ticket later (docs/platform.md, "Devices"). A turn
 * that came through the fleet never gets it, and the robot never targets itself (docs/platform.md, "Errors").
 */
import { CADENCE } from './limits.ts';
import { sleep } from './scheduler.ts';
import type { DeviceEntry, SessionClient } from './session-client.ts';
import type { Scheduler } from './types.ts';

/** Per-call context the agent runtime passes. */
export interface ToolContext {
  /** True for a turn that arrived through the fleet relay. */
  fleet?: boolean;
  signal?: AbortSignal;
}

/** A plain tool definition an agent runtime can register. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  run(input: unknown, ctx: ToolContext): Promise<Record<string, unknown>>;
}

/** Dependencies of the tool. */
export interface UseDeviceDeps {
  /** The owner's session client, or null when no session or command-line token is configured. */
  session: () => Promise<SessionClient | null>;
  /** This robot's own device id, never a target. */
  selfDeviceId: () => string | null;
  scheduler: Scheduler;
  pollMs?: number;
  waitMs?: number;
}

/** The tool's name, also used by runtimes to keep it out of fleet turns. */
export const USE_DEVICE = 'use_device';

const INPUT_SCHEMA = {
  type: 'object',
  properties: {
    action: {
      type: 'string',
      enum: ['list', 'invoke', 'result'],
      description: 'list devices, invoke one, or redeem a pending ticket',
    },
    device: { type: 'string', description: 'invoke: the target device id or its exact name' },
    prompt: { type: 'string', description: 'invoke: what the other device should do' },
    wait: { type: 'boolean', description: 'invoke: wait up to 45 s for the reply (default true)' },
    envelope_id: { type: 'string', description: 'result: the ticket returned by a pending invoke (or a task_ ticket)' },
  },
  required: ['action'],
  additionalProperties: false,
} as const;

const fail = (error: string, extra: Record<string, unknown> = {}) => ({ ok: false, error, ...extra });

function parseReply(payload: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(payload);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { result: value };
  } catch {
    return { result: payload };
  }
}

/** Finds the target by exact id, else by a unique case-insensitive name. */
export function resolveDevice(devices: DeviceEntry[], wanted: string): DeviceEntry | string {
  const byId = devices.find((d) => d.id === wanted);
  if (byId) return byId;
  const byName = devices.filter((d) => d.name.toLowerCase() === wanted.trim().toLowerCase());
  if (byName.length === 1 && byName[0]) return byName[0];
  return byName.length > 1 ? `several devices are named "${wanted}"; use its id` : `no device "${wanted}"`;
}

type Deps = Required<Pick<UseDeviceDeps, 'pollMs' | 'waitMs'>> & UseDeviceDeps;

async function listDevices(deps: Deps, session: SessionClient) {
  const out = await session.listDevices();
  if (!out.ok) return fail(out.failure.message, { kind: out.failure.kind });
  const self = deps.selfDeviceId();
  return { ok: true, devices: out.value.map((d) => ({ ...d, self: d.id === self })) };
}

async function redeem(session: SessionClient, envelopeId: string) {
  const out = await session.relayReply(envelopeId);
  if (!out.ok) return fail(out.failure.message, { kind: out.failure.kind });
  if (!out.value)
    return {
      ok: true,
      pending: true,
      envelope_id: envelopeId,
      note: 'no reply yet; try action "result" again later (replies are kept 24 h)',
    };
  return { ok: true, envelope_id: envelopeId, reply: parseReply(out.value.payload) };
}

/** Polls the reply every 3 s for up to 45 s (docs/platform.md, "Devices"), then hands back the ticket. */
async function waitForReply(deps: Deps, session: SessionClient, envelopeId: string, signal?: AbortSignal) {
  const deadline = deps.scheduler.now() + deps.waitMs;
  // Counted as well as timed: with the wall clock set back during the wait, the deadline alone
  // kept polling (every 3 s) for as long as the clock went back.
  const polls = Math.ceil(deps.waitMs / deps.pollMs);
  for (let poll = 0; poll < polls && deps.scheduler.now() < deadline && !signal?.aborted; poll += 1) {
    await sleep(deps.scheduler, deps.pollMs, signal);
    const out = await session.relayReply(envelopeId);
    if (out.ok && out.value) return { ok: true, envelope_id: envelopeId, reply: parseReply(out.value.payload) };
    // A refused session will not come back within the wait: say so instead of "pending".
    if (!out.ok && out.failure.kind === 'unauthorized')
      return fail('the platform refused the owner session token while waiting for the reply', {
        kind: 'session_refused',
        envelope_id: envelopeId,
      });
    // Any other failed read is not the device's answer: keep waiting within the budget.
  }
  return {
    ok: true,
    pending: true,
    envelope_id: envelopeId,
    note: 'the device has not answered yet; redeem later with action "result" and this envelope_id',
  };
}

/** One turn on an endpoint device through POST /api/devices/endpoint/chat (at most 90 s). */
async function endpointChat(session: SessionClient, target: DeviceEntry, prompt: string) {
  const out = await session.endpointChat(target.id, prompt);
  if (!out.ok) return fail(out.failure.message, { kind: out.failure.kind });
  return { device: target.name, ...out.value };
}

async function invoke(deps: Deps, session: SessionClient, input: Record<string, unknown>, signal?: AbortSignal) {
  if (typeof input.device !== 'string' || typeof input.prompt !== 'string' || input.prompt.trim() === '')
    return fail('invoke needs a device and a prompt');
  const devices = await session.listDevices();
  if (!devices.ok) return fail(devices.failure.message, { kind: devices.failure.kind });
  const target = resolveDevice(devices.value, input.device);
  if (typeof target === 'string') return fail(target, { kind: 'no_such_device' });
  const selfId = deps.selfDeviceId();
  if (target.id === selfId) return fail('a robot never invokes itself through the fleet');
  // Endpoint devices are dialled by the platform, not polled (docs/platform.md, "Devices").
  if (target.kind === 'endpoint') return endpointChat(session, target, input.prompt);
  // `from` names this robot in the receiver's `[fleet depth=1 from <name>]` mark (docs/platform.md, "Errors").
  const self = devices.value.find((d) => d.id === selfId);
  const envelope = { type: 'invoke', prompt: input.prompt, ...(self ? { from: self.name } : {}) };
  const sent = await session.relaySend(target.id, envelope);
  if (!sent.queued) return { ok: false, ...sent };
  if (input.wait === false)
    return { ok: true, pending: true, envelope_id: sent.id, note: 'queued; redeem with action "result"' };
  return waitForReply(deps, session, sent.id, signal);
}

async function dispatch(deps: Deps, raw: unknown, ctx: ToolContext): Promise<Record<string, unknown>> {
  // Fleet turns get no fleet tools, which caps the depth at 1 (docs/platform.md, "Errors").
  if (ctx.fleet) return fail('use_device is not available in a turn that came through the fleet');
  const input = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const session = await deps.session();
  if (!session)
    return fail('no owner session: add a platform command-line token in the settings to reach other devices');
  if (input.action === 'list') return listDevices(deps, session);
  if (input.action === 'invoke') return invoke(deps, session, input, ctx.signal);
  if (input.action !== 'result') return fail('action must be list, invoke or result');
  return typeof input.envelope_id === 'string' && input.envelope_id !== ''
    ? redeem(session, input.envelope_id)
    : fail('result needs an envelope_id');
}

/** Creates the use_device tool. */
export function createUseDeviceTool(deps: UseDeviceDeps): ToolDefinition {
  const full: Deps = {
    ...deps,
    pollMs: deps.pollMs ?? CADENCE.useDevicePollMs,
    waitMs: deps.waitMs ?? CADENCE.useDeviceWaitMs,
  };
  return {
    name: USE_DEVICE,
    description:
      'Use the owner\'s other devices on the platform. action "list" shows them; "invoke" sends a prompt to one device and waits up to 45 s for its answer, else returns a pending envelope_id; "result" redeems an envelope_id later.',
    inputSchema: INPUT_SCHEMA,
    run: (input, ctx) => dispatch(full, input, ctx),
  };
}
