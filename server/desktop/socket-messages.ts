/**
 * Messages a dashboard sends on /ws: joystick targets for continuous head control and pings.
 * Anything else is answered with an error frame rather than silently dropped, so a client bug
 * shows up in the client.
 */
import type { ErrorCode } from '../contract/errors.ts';
import type { ErrorFrame, PongFrame } from '../contract/ws.ts';
import { hasKey } from '../http/caller.ts';
import type { WsClient } from '../http/ws-hub.ts';
import type { Control } from '../motion/control.ts';

/** Inbound frames are small (the largest is a browser's SDP answer for the video relay); anything larger is not ours. */
const MAX_MESSAGE = 16 * 1024;

export interface SocketMessageDeps {
  control: Control;
  /** A joystick frame refused here, before Control (the black box records it). */
  refusedJoystick?(caller: WsClient['caller'], code: string): void;
  /** Extra message types owned by other features (camera on/off...). */
  handlers?: Record<string, (client: WsClient, message: Record<string, unknown>) => void>;
}

/** Answers a message this socket refuses with an error frame. */
function refuse(client: WsClient, code: ErrorCode, error: string): void {
  client.send({ type: 'error', code, error } satisfies ErrorFrame);
}

export function handleSocketMessages(deps: SocketMessageDeps): (client: WsClient) => void {
  return (client) => {
    client.onMessage((data, isBinary) => {
      if (isBinary || (data as Buffer).length > MAX_MESSAGE) {
        refuse(client, 'BAD_REQUEST', 'messages are JSON text of at most 16 KB');
        return;
      }
      let message: unknown;
      try {
        message = JSON.parse(String(data));
      } catch {
        refuse(client, 'BAD_JSON', 'message is not valid JSON');
        return;
      }
      if (typeof message !== 'object' || message === null || Array.isArray(message)) {
        refuse(client, 'BAD_REQUEST', 'message must be a JSON object with a type');
        return;
      }
      route(deps, client, message as Record<string, unknown>);
    });
  };
}

function route(deps: SocketMessageDeps, client: WsClient, message: Record<string, unknown>): void {
  const type = message['type'];
  if (type === 'ping') {
    client.send({ type: 'pong', time: Date.now() } satisfies PongFrame);
    return;
  }
  if (type === 'joystick') {
    // Loopback trust covers reads only (docs/contract.md, "Authentication"): driving needs a key.
    if (!hasKey(client.caller)) {
      deps.refusedJoystick?.(client.caller, 'AUTH_REQUIRED');
      refuse(client, 'AUTH_REQUIRED', 'driving the head needs the owner token or a passkey session');
      return;
    }
    const result = deps.control.streamTarget(message, client.caller);
    if (!result.accepted) refuse(client, result.code, result.error);
    return;
  }
  // Own keys only: a message typed "__proto__" or "constructor" must not reach Object's members.
  const handler = typeof type === 'string' && deps.handlers && Object.hasOwn(deps.handlers, type) ? deps.handlers[type] : undefined;
  if (typeof handler === 'function') return handler(client, message);
  refuse(client, 'BAD_REQUEST', `unknown message type ${JSON.stringify(type)}`);
}
