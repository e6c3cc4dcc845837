/**
 * Differences between two probes of the same cases (server/real-daemon/probe.ts): the reference
 * (the real daemon, live or recorded) against the candidate (the simulator). Each difference is
 * one readable line. Cases marked `env` depend on how each daemon was started and are skipped.
 */
import type { Probe } from './probe.ts';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export function compareProbes(reference: Probe, candidate: Probe): string[] {
  const out: string[] = [];
  for (const ref of reference.answers) {
    if (ref.env) continue;
    const got = candidate.answers.find((a) => a.name === ref.name);
    const where = `${ref.name} (${ref.method} ${ref.path})`;
    if (!got) {
      out.push(`${where}: not probed on the candidate`);
      continue;
    }
    if (got.status !== ref.status) out.push(`${where}: status ${got.status}, reference ${ref.status}`);
    if (got.kind !== ref.kind) out.push(`${where}: ${got.kind} body, reference ${ref.kind}`);
    else if (ref.status < 400 && !same(got.shape, ref.shape)) {
      out.push(`${where}: shape ${JSON.stringify(got.shape)}, reference ${JSON.stringify(ref.shape)}`);
    } else if (ref.status >= 400 && !same(got.error, ref.error)) {
      out.push(`${where}: error body ${JSON.stringify(got.error)}, reference ${JSON.stringify(ref.error)}`);
    }
  }
  // Every route the candidate serves must exist on the reference (the simulator invents none).
  if (reference.routes.length > 0) {
    for (const route of candidate.routes) {
      if (!reference.routes.includes(route)) out.push(`route ${route}: served by the candidate, not by the reference`);
    }
  }
  const ws = (name: string, a: unknown, b: unknown) => {
    if (!same(a, b)) out.push(`websocket ${name}: ${JSON.stringify(b)}, reference ${JSON.stringify(a)}`);
  };
  ws('state frame shape', reference.ws.stateFrame, candidate.ws.stateFrame);
  ws('goto event sequence', reference.ws.gotoEvents, candidate.ws.gotoEvents);
  ws('stopped goto event sequence', reference.ws.stoppedEvents, candidate.ws.stoppedEvents);
  ws('move event shape', reference.ws.eventShape, candidate.ws.eventShape);
  ws('unknown socket refusal', reference.ws.unknownSocket, candidate.ws.unknownSocket);
  ws('cross-origin socket refusal', reference.ws.crossOriginSocket, candidate.ws.crossOriginSocket);
  ws('set_target socket applied', reference.ws.setTargetApplied, candidate.ws.setTargetApplied);
  return out;
}
