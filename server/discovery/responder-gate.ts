/**
 * A gate in front of bonjour-service's responder. Left alone, it multicasts one answer packet for
 * every question of a query that names our records, repeats included: one query of a thousand
 * copies of the `_robot-cockpit._tcp.local` question made a thousand answers on the LAN (a
 * reflection amplifier anyone on the LAN, or anyone who reaches port 5353, could aim at it), and
 * a stream of such queries kept the event loop busy encoding them. Through the gate a query is
 * answered once per distinct question, and a question answered in the last second is not answered
 * again: that answer went to the whole LAN, the asker included (RFC 6762 §6 asks the same).
 */

interface Question {
  name: string;
  type: string;
}

/** bonjour-service's Server (its fields are private in its types, public in its code). */
export interface ResponderServer {
  mdns: {
    removeAllListeners(event: 'query'): unknown;
    on(event: 'query', listener: (query: unknown, rinfo?: { address: string }) => void): unknown;
  };
  respondToQuery(query: { questions: Question[] }): void;
  recordsFor(name: string, type: string): unknown[];
}

/** The record types bonjour-service registers; an ANY question is answered from all of them. */
const TYPES = ['PTR', 'SRV', 'TXT', 'A', 'AAAA'];

export const ANSWER_EVERY_MS = 1000;

/** `onLink` tells a sender on this machine's link (on-link.ts); no one else is answered. */
export function gateResponder(server: ResponderServer, now: () => number, onLink: (address: string) => boolean): void {
  /** When each question we had records for was last answered; only such questions are kept. */
  const answered = new Map<string, number>();
  const matches = (q: Question) =>
    (q.type === 'ANY' ? TYPES : [q.type]).some((type) => server.recordsFor(q.name, type).length > 0);

  server.mdns.removeAllListeners('query');
  server.mdns.on('query', (query, rinfo) => {
    if (rinfo && !onLink(rinfo.address)) return;
    const questions = (query as { questions?: unknown }).questions;
    if (!Array.isArray(questions)) return;
    const at = now();
    for (const [key, when] of answered) if (at - when >= ANSWER_EVERY_MS) answered.delete(key);
    const kept: Question[] = [];
    for (const q of questions as Question[]) {
      if (typeof q?.name !== 'string' || typeof q.type !== 'string') continue;
      const key = `${q.type}\u0000${q.name.toLowerCase()}`;
      if (answered.has(key) || !matches(q)) continue;
      answered.set(key, at);
      kept.push({ name: q.name, type: q.type });
    }
    if (kept.length > 0) server.respondToQuery({ ...(query as object), questions: kept });
  });
}
