/**
 * /ws/chat (docs/contract.md, "Events"). Client messages: {type: "chat", text}
 * or a bare string (chat); {type: "control", linear, angular, duration} and {stop: true}, both
 * answered with {type: "control_ack"}; {type: "ping"}, answered with {type: "pong"}. A chat
 * streams token, tool and reasoning frames, then {type: "done", text} or {type: "error", error}.
 * One turn at a time per socket; the socket remembers its conversation. Closing the socket stops
 * the base at once if its frame is the one running, and aborts its turn.
 */
import { randomUUID } from 'node:crypto';
import type { RawData } from 'ws';
import type { ChatMessage } from '../../agent/providers/types.ts';
import type { ChatServerFrame } from '../../contract/wheeled.ts';
import type { CredentialKind } from '../../contract/ws.ts';
import { createRateLimiter } from '../../http/rate-limit.ts';
import { systemClock } from '../../clock.ts';
import { messageOf } from '../../errors.ts';
import type { WsClient } from '../../http/ws-hub.ts';
import type { Log } from '../../log.ts';
import type { DriveController } from '../drive/drive-controller.ts';
import { driverOf } from '../drive/driver.ts';
import { parseDriveInput } from '../drive/frame-input.ts';
import { checkChatText } from './chat-input.ts';
import { createSocketSink } from './socket-sink.ts';
import type { WheeledAgent } from './wheeled-agent.ts';

/** Control frames a socket may send per second: a joystick sends 10-20. */
export const SOCKET_FRAMES_PER_SECOND = 40;
/** Messages of history kept per socket (cut at a user message, so tool pairs stay whole). */
const HISTORY_MESSAGES = 24;

type Incoming =
  | { kind: 'chat'; text: unknown }
  | { kind: 'control'; body: Record<string, unknown> }
  | { kind: 'ping' }
  | { kind: 'unknown'; type: unknown };

function classify(text: string): Incoming {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'chat', text };
  }
  if (typeof value === 'string') return { kind: 'chat', text: value };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'unknown', type: undefined };
  const body = value as Record<string, unknown>;
  if (body.stop === true || body.type === 'control' || body.type === 'stop')
    return { kind: 'control', body: body.type === 'stop' ? { stop: true } : body };
  if (body.type === 'ping') return { kind: 'ping' };
  if (body.type === 'chat') return { kind: 'chat', text: body.text };
  return { kind: 'unknown', type: body.type };
}

function trimHistory(messages: ChatMessage[]): ChatMessage[] {
  if (messages.length <= HISTORY_MESSAGES) return messages;
  const from = messages.findIndex((m, i) => i >= messages.length - HISTORY_MESSAGES && m.role === 'user');
  return from < 0 ? [] : messages.slice(from);
}

export function chatSocketHandler(deps: {
  agent: WheeledAgent;
  controller: DriveController;
  log: Log;
}): (client: WsClient) => void {
  return (client) => {
    const owner = `ws:${randomUUID()}`;
    const driver = driverOf(client.caller);
    const credential = (client.caller.kind === 'anonymous' ? 'token' : client.caller.kind) as CredentialKind;
    const limiter = createRateLimiter({ limit: SOCKET_FRAMES_PER_SECOND, clock: systemClock });
    const send = (frame: ChatServerFrame) => client.send(frame);
    let history: ChatMessage[] = [];
    let turn: AbortController | undefined;

    const control = (body: Record<string, unknown>) => {
      try {
        if (!limiter.check(owner).ok) throw new Error(`more than ${SOCKET_FRAMES_PER_SECOND} control frames a second`);
        const input = parseDriveInput(body);
        if ('stop' in input) {
          deps.controller.stop({ driver, owner });
          return send({ type: 'control_ack', ok: true, stop: true });
        }
        const outcome = deps.controller.frame(input, { driver, owner });
        send({ type: 'control_ack', ok: true, applied: outcome.applied, clamped: outcome.clamped });
      } catch (error) {
        send({ type: 'control_ack', ok: false, error: messageOf(error) });
      }
    };

    const chat = (value: unknown) => {
      let text: string;
      try {
        text = checkChatText(value);
      } catch (error) {
        return send({ type: 'error', error: messageOf(error) });
      }
      if (turn) return send({ type: 'error', error: 'a reply is still streaming; wait for its done frame' });
      const controller = new AbortController();
      let running;
      try {
        running = deps.agent.run({
          prompt: text,
          credential,
          history,
          sink: createSocketSink(send),
          signal: controller.signal,
        });
      } catch (error) {
        return send({ type: 'error', error: messageOf(error) });
      }
      turn = controller;
      void running.then((result) => {
        turn = undefined;
        history = trimHistory(result.messages);
        send(
          result.ok
            ? { type: 'done', text: result.text, seconds: result.seconds }
            : { type: 'error', error: result.error ?? 'the turn failed' },
        );
      });
    };

    client.onMessage((data: RawData, isBinary: boolean) => {
      if (isBinary) return send({ type: 'error', error: 'binary frames belong on /ws/voice' });
      const message = classify(data.toString());
      if (message.kind === 'ping') return send({ type: 'pong', time: Date.now() });
      if (message.kind === 'control') return control(message.body);
      if (message.kind === 'chat') return chat(message.text);
      send({
        type: 'error',
        error: `unknown message type ${JSON.stringify(message.type ?? null)} (chat, control, ping)`,
      });
    });
    client.ws.on('close', () => {
      deps.controller.release(owner);
      turn?.abort(new Error('the chat socket closed'));
    });
  };
}
