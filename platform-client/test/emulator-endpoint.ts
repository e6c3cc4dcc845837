/**
 * Endpoint devices in the emulator (docs/platform.md, "Devices": GET /api/devices/endpoint and
 * POST /api/devices/endpoint/chat; docs/platform.md, "Devices"). The platform dials the device's own
 * URL with its bearer secret; the emulator cannot dial a public https host from a test, so a
 * script stands in for what the device answers. Failures come back as `{ok: false, error}` with
 * the flag that says why: unreachable, timeout or unauthorized.
 */
import { fail, ok, type EmuContext, type EmuReply, type EmuRequest } from './emulator-context.ts';
import { ownedDevice, session } from './emulator-session-routes.ts';
import type { EmuDevice } from './emulator-state.ts';

/** What the platform asked the endpoint device. */
export type EmuEndpointCall = { action: 'chat'; prompt: string } | { action: 'telemetry' } | { action: 'snapshot' };

/** What the endpoint device answered, or why it could not be reached. */
export type EmuEndpointAnswer =
  | { result: unknown }
  | { image: { bytes: Buffer; contentType: 'image/jpeg' | 'image/png' | 'image/webp' } }
  | { failure: 'unreachable' | 'timeout' | 'unauthorized' };

export type EmuEndpointScript = (device: EmuDevice, call: EmuEndpointCall) => EmuEndpointAnswer;

/** The default endpoint device answers chat with an echo and telemetry with a fixed object. */
export const defaultEndpointScript: EmuEndpointScript = (_device, call) =>
  call.action === 'chat' ? { result: `endpoint heard: ${call.prompt}` } : { result: { battery: 80 } };

const FAILURE_TEXT = {
  unreachable: 'device unreachable',
  timeout: 'device did not answer in time; it may still be working',
  unauthorized: 'device rejected our credential',
};

function answerOf(answer: EmuEndpointAnswer): EmuReply {
  if ('failure' in answer) return ok({ ok: false, error: FAILURE_TEXT[answer.failure], [answer.failure]: true });
  if ('image' in answer)
    return { status: 200, raw: { bytes: answer.image.bytes, contentType: answer.image.contentType } };
  return ok({ result: answer.result });
}

function endpointOf(ctx: EmuContext, userId: string, deviceId: unknown): EmuDevice | EmuReply {
  const device = ownedDevice(ctx, userId, deviceId);
  if (!device) return fail(404, 'device not found');
  return device.kind === 'endpoint' ? device : fail(400, 'not an endpoint device');
}

/** Builds the two endpoint routes over the current script. */
export function endpointRoutes(script: () => EmuEndpointScript) {
  const read = session((req: EmuRequest, ctx, userId) => {
    const action = req.query.get('action');
    if (action !== 'telemetry' && action !== 'snapshot') return fail(400, 'action must be telemetry or snapshot');
    const device = endpointOf(ctx, userId, req.query.get('deviceId'));
    if ('status' in device) return device;
    return answerOf(script()(device, { action }));
  });
  const chat = session((req: EmuRequest, ctx, userId) => {
    const { deviceId, prompt } = req.body;
    if (typeof prompt !== 'string' || prompt.trim() === '') return fail(400, 'deviceId and prompt required');
    const device = endpointOf(ctx, userId, deviceId);
    if ('status' in device) return device;
    const answer = script()(device, { action: 'chat', prompt });
    if ('image' in answer) return fail(502, 'device answered chat with an image');
    return answerOf(answer);
  });
  return { 'GET /api/devices/endpoint': read, 'POST /api/devices/endpoint/chat': chat };
}
