/**
 * Dashboard event receipts: every control leaves one, numbered and timed here, kept in a small
 * ring for GET /api/log and broadcast as `{type: "event"}` on /ws to every open dashboard.
 */
import type { EventFrame } from '../contract/ws.ts';

export type EventInput = Omit<EventFrame, 'id' | 'time'>;

export interface EventLog {
  emit(event: EventInput): EventFrame;
  recent(limit?: number): EventFrame[];
}

export function createEventLog(options: { broadcast: (frame: EventFrame) => void; keep?: number; now?: () => number }): EventLog {
  const keep = options.keep ?? 200;
  const now = options.now ?? Date.now;
  const ring: EventFrame[] = [];
  let nextId = 1;
  return {
    emit(event) {
      const frame: EventFrame = { ...event, type: 'event', id: nextId++, time: new Date(now()).toISOString() };
      ring.push(frame);
      if (ring.length > keep) ring.splice(0, ring.length - keep);
      options.broadcast(frame);
      return frame;
    },
    recent(limit = keep) {
      return ring.slice(-limit);
    },
  };
}
