/**
 * A turn streamed onto /ws/chat (docs/contract.md, "Events"): text as
 * {type: "token", data, complete: false} pieces and one {complete: true} when a model step's
 * text is over; reasoning as {type: "reasoning", data}; each tool call as {type: "tool"} when it
 * starts and again when it ends with its result or error. The closing done/error frame is the
 * socket handler's, once the turn's outcome is known.
 */
import type { ChatServerFrame } from '../../contract/wheeled.ts';
import type { TurnSink } from '../../agent/turn-loop.ts';

export function createSocketSink(send: (frame: ChatServerFrame) => void): TurnSink {
  let streamed = false;
  return {
    text(delta) {
      if (delta === '') return;
      streamed = true;
      send({ type: 'token', data: delta, complete: false });
    },
    reasoning(delta) {
      if (delta !== '') send({ type: 'reasoning', data: delta });
    },
    stepEnd() {
      if (streamed) send({ type: 'token', data: '', complete: true });
      streamed = false;
    },
    toolStart(call) {
      send({ type: 'tool', id: call.id, name: call.name, phase: 'start', input: call.input });
    },
    toolEnd(call, outcome) {
      send({
        type: 'tool',
        id: call.id,
        name: call.name,
        phase: 'end',
        input: call.input,
        ...('error' in outcome ? { error: outcome.error } : { result: outcome.result }),
      });
    },
  };
}
