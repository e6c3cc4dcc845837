/**
 * The responder behind the gate, over a stand-in dgram socket (no traffic): bonjour-service's
 * own answering code, fed queries as the wire would, answers a question once per query and once
 * a second, however often a query repeats it, and only to senders on this machine's link.
 */
import { afterEach, expect, it } from 'vitest';
import { createLog } from '../log.ts';
import { eventually } from '../testing/eventually.ts';
import { bonjourTransport, type MdnsTransport } from './lan-discovery.ts';
import { ANSWER_EVERY_MS } from './responder-gate.ts';
import { standInSocket } from './testing/stand-in-socket.ts';
import { dnsPacket, type DnsRecord } from './testing/wire.ts';

const FQDN = 'Desk robot._robot-cockpit._tcp.local';

/** The answers of each packet sent, as `TYPE name`. */
const answersOf = (sent: Buffer[]) =>
  sent.map((b) => (dnsPacket.decode(b) as { answers: DnsRecord[] }).answers.map((a) => `${a.type} ${a.name}`));

let transport: MdnsTransport | undefined;
afterEach(async () => {
  const t = transport;
  transport = undefined;
  if (t) await new Promise<void>((resolve) => t.destroy(resolve));
});

/** The responder with our service published, and a way to ask it as a sender would. */
async function responder(clock: () => number) {
  const { socket, sent } = standInSocket();
  const onLink = (address: string) => address.startsWith('192.168.1.');
  transport = bonjourTransport({ socket }, clock, onLink)(createLog({ level: 'error' }));
  const config = {
    name: 'Desk robot',
    type: 'robot-cockpit',
    port: 8097,
    host: 'desk-robot.local',
    txt: { name: 'Desk robot' },
    probe: false,
  };
  transport.publish(config);
  await eventually(() => sent.length > 0, { what: 'the announcement' });
  const base = sent.length;
  return {
    ask: (questions: { name: string; type: string }[], address = '192.168.1.66') =>
      socket.emit('message', dnsPacket.encode({ type: 'query', questions } as never), { address, port: 5353 }),
    send: (message: Buffer) => socket.emit('message', message, { address: '192.168.1.66', port: 5353 }),
    /** The answers sent since the announcement. */
    answers: () => answersOf(sent.slice(base)),
  };
}

/**
 * `query` with its first question asked `copies` times more, each copy naming it by a pointer (as
 * a sender compresses names): a thousand fit in one mDNS packet's 9000 bytes (packet-budget.ts).
 */
function repeated(query: Buffer, copies: number): Buffer {
  const copy = Buffer.from([0xc0, 12, 0, 12, 0, 1]); // the name at offset 12, type PTR, class IN
  const out = Buffer.concat([query, ...Array.from({ length: copies }, () => copy)]);
  out.writeUInt16BE(out.readUInt16BE(4) + copies, 4);
  return out;
}

it('answers a question repeated a thousand times in one query once, and again only after a second', async () => {
  let clock = 1_000_000;
  const { ask, send, answers } = await responder(() => clock);
  const ptr = (name = '_robot-cockpit._tcp.local') => ({ name, type: 'PTR' });
  const answered = (type: string) => answers().filter((a) => a.includes(`${type} ${FQDN}`)).length;
  const answeredPtr = () => answers().filter((a) => a.some((rr) => rr.startsWith('PTR _robot-cockpit'))).length;

  send(
    repeated(dnsPacket.encode({ type: 'query', questions: [ptr(), ptr('_ROBOT-Cockpit._tcp.local')] } as never), 998),
  );
  ask([{ name: FQDN, type: 'SRV' }]);
  await eventually(() => answered('SRV') === 1, { what: 'the SRV answer' });
  expect(answeredPtr()).toBe(1);

  ask([ptr()]);
  ask([{ name: FQDN, type: 'TXT' }]);
  await eventually(() => answered('TXT') === 1, { what: 'the TXT answer' });
  expect(answeredPtr()).toBe(1);

  clock += ANSWER_EVERY_MS;
  ask([ptr()]);
  await eventually(() => answeredPtr() === 2, { what: 'the PTR answered again a second later' });
});

it('answers no one off this link', async () => {
  const { ask, answers } = await responder(() => 1_000_000);
  ask([{ name: FQDN, type: 'SRV' }], '203.0.113.9');
  ask([{ name: FQDN, type: 'TXT' }], '192.168.1.66');
  await eventually(() => answers().length > 0, { what: 'the TXT answer' });
  expect(answers()).toEqual([[`TXT ${FQDN}`]]);
});
