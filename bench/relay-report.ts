/** The WebRTC relay's part of bench/RESULTS.md: fan-out, latency, idle and the one-core run. */
import type { GlassResult } from './glass-to-glass.ts';
import type { IdleResult } from './idle.ts';
import type { RelayResult } from './relay-viewers.ts';
import type { FloorResult } from './send-floor.ts';
import type { FanoutResult } from './state-fanout.ts';

/** The section's first line; `BENCH_ONLY=relay` replaces RESULTS.md from here. */
export const RELAY_HEADING = '## WebRTC relay (H.264 forwarded, no decoder)';

export interface RelayResults {
  relay: RelayResult[];
  /** The send floor with the same viewer counts (bench/send-floor.ts), then the largest count again with two threads. */
  floor: FloorResult[];
  glass: GlassResult;
  idle: IdleResult;
  oneCore: { state: FanoutResult[]; relay: RelayResult[]; floor: FloorResult[] };
}

const f = (n: number | null, digits = 1) => (n !== null && Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const pass = (ok: boolean) => (ok ? 'met' : '**missed**');

function relayRows(rows: RelayResult[]): string[] {
  return rows.map(
    (r) =>
      `| ${r.viewers}${r.failedJoins > 0 ? ` (${r.failedJoins} failed to join)` : ''} | ${f(r.cpuPercent)} % | ${f(r.cpuPercentPerViewer, 3)} % | ${f(r.packetsOutPerSecond, 0)} | ${f(r.packetsPerViewerPerSecond, 1)} | ${f(r.addedLatencyP50Ms, 3)} / ${f(r.addedLatencyP99Ms, 3)} | ${f(r.pictureLatencyP50Ms, 2)} / ${f(r.pictureLatencyP99Ms, 2)} | ${r.upstreamCameraSessions} | ${r.decoderProcesses} |`,
  );
}

function floorRows(rows: FloorResult[], label = ''): string[] {
  return rows.map(
    (r) =>
      `| ${r.viewers}${r.threads === 2 ? ', two threads' : ''}${label} | ${f(r.cpuPercent)} % | ${f(r.packetsPerViewerPerSecond, 1)} | ${f(r.pictureLatencyP50Ms, 2)} / ${f(r.pictureLatencyP99Ms, 2)} | ${f(r.packetLatencyP99Ms, 2)} |`,
  );
}

/**
 * What the floor says of the relay's p99 target at its largest viewer count, per packet and per
 * picture, on one thread and on two.
 */
function floorVerdict(r: RelayResults): string {
  const one = r.floor.filter((x) => x.threads === 1).at(-1);
  const relay = r.relay.find((x) => x.viewers === one?.viewers);
  if (!one || !relay) return '';
  const under = (ms: number | null): boolean => ms !== null && ms < 5;
  const ratio = f((relay.pictureLatencyP99Ms ?? 0) / (one.pictureLatencyP99Ms ?? 1), 1);
  const lines = [
    `At ${one.viewers} viewers the floor's p99 on one thread is ${f(one.pictureLatencyP99Ms, 2)} ms per picture and ${f(one.packetLatencyP99Ms, 2)} ms per packet; the relay's is ${f(relay.pictureLatencyP99Ms, 2)} ms per picture (${ratio} times the floor) and ${f(relay.addedLatencyP99Ms, 2)} ms per packet.`,
    under(one.packetLatencyP99Ms)
      ? 'Per packet the floor is under 5 ms.'
      : 'Per packet, a p99 under 5 ms is below what encryption and sends alone take on one core of this machine, before any WebRTC work.',
    under(one.pictureLatencyP99Ms)
      ? "Per picture the floor is under 5 ms: what the relay spends beyond it is werift's and the relay's own work."
      : 'Per picture, too, a p99 under 5 ms is below what encryption and sends alone take on one core.',
  ];
  const two = r.floor.find((x) => x.threads === 2 && x.viewers === one.viewers);
  if (two) {
    lines.push(
      `With the sending split between the main thread (core 0) and a worker thread (core 1, beside the receiving viewers), the floor's p99 is ${f(two.pictureLatencyP99Ms, 2)} ms per picture and ${f(two.packetLatencyP99Ms, 2)} ms per packet: ${under(two.packetLatencyP99Ms) ? 'a relay whose fan-out used both cores could get under 5 ms per packet here.' : 'on this two-core machine, whose second core also runs the viewers, a fan-out over both cores does not bring the per-packet p99 under 5 ms.'}`,
    );
  }
  return lines.join(' ');
}

const FLOOR_HEADER = [
  '| Viewers | Sender CPU | Packets/viewer/s | Picture latency p50 / p99 (ms) | Packet latency p99 (ms) |',
  '|---|---|---|---|---|',
];

const RELAY_HEADER = [
  '| Viewers | Cockpit CPU | CPU per viewer | Packets forwarded/s | Packets/viewer/s | Added latency p50 / p99 (ms) | Picture latency p50 / p99 (ms) | Upstream sessions | Decoder processes |',
  '|---|---|---|---|---|---|---|---|---|',
];

export function renderRelayReport(r: RelayResults): string {
  const worst = r.relay.reduce((max, x) => Math.max(max, x.addedLatencyP99Ms ?? Infinity), 0);
  const medianWorst = r.relay.reduce((max, x) => Math.max(max, x.addedLatencyP50Ms ?? Infinity), 0);
  const pictureWorst = r.relay.reduce((max, x) => Math.max(max, x.pictureLatencyP99Ms ?? Infinity), 0);
  const sessions = [...r.relay, ...r.oneCore.relay].every((x) => x.upstreamCameraSessions === 1);
  const decoders = [...r.relay, ...r.oneCore.relay].every((x) => x.decoderProcesses === 0);
  return [
    RELAY_HEADING,
    '',
    'Viewers are werift peer connections signalled over /ws as the dashboard does. Added latency is',
    "the cockpit's own figure: a packet's arrival from the daemon to its hand-over to the viewer's",
    "socket, over every packet of the measured span (the relay's latency counts, read from",
    'GET /api/console/camera/relay before and after; 0.05 ms buckets, each figure the upper edge of',
    "its bucket). The cockpit's event loop has core 0 to itself while measured; its other threads",
    '(garbage collector, compiler, thread pool), the simulator and the viewers, standing in for',
    'browsers on other machines, share core 1 (bench/relay-viewers.ts).',
    '',
    "Added latency starts when the cockpit reads a packet, so it leaves out the time a packet waits",
    "unread in the socket while the ones before it go out to every viewer. A keyframe's packets come",
    "together, so picture latency, from a picture's first packet in to its last packet out, once per",
    'picture and viewer, is the figure that includes that wait: for the last packet of a picture it',
    'is that packet\'s own added latency.',
    '',
    ...RELAY_HEADER,
    ...relayRows(r.relay),
    '',
    '### The send floor (bench/send-floor.ts)',
    '',
    "The same traffic (15 pictures a second, a keyframe of 12 packets every 2 s) sent by a Node",
    'process that does only what no relay can leave out: AES-128-GCM encryption for each viewer',
    "(SRTP's AEAD profile, which werift and Chromium agree on) and a UDP send on each viewer's own",
    'connected socket, in one synchronous loop, with no WebRTC library, queue or promise. It is',
    'placed on the cores as the cockpit is. A picture\'s packets are all there at once, so each',
    "packet's latency includes the wait behind the ones before it, as the relay's picture latency does.",
    '',
    ...FLOOR_HEADER,
    ...floorRows(r.floor),
    ...floorRows(r.oneCore.floor, ', one core'),
    '',
    floorVerdict(r),
    '',
    '### Glass to glass (Chromium, frame counter drawn by the simulator)',
    '',
    `${r.glass.rounds} rounds of ${r.glass.seconds} s, each in two pages at the same time, one per path, with new sessions; the page reads the counter strip from every displayed frame, after ${r.glass.warmupSeconds} s not counted. Both take the picture only: with the simulator's sound taken as well, Chromium held every picture back to play it in sync with the sound (the relay forwards no sound). The simulator encodes each session on its own, and one session's pictures can come 15 to 40 ms later than the other's for a whole round, whichever path it feeds, so what the relay adds is the median of the rounds' differences (bench/glass-to-glass.ts).`,
    '',
    '| Path | Frames read | p50 (ms) | p99 (ms) |',
    '|---|---|---|---|',
    `| straight from the simulator | ${r.glass.direct.frames} | ${f(r.glass.direct.p50, 0)} | ${f(r.glass.direct.p99, 0)} |`,
    `| through the cockpit's relay | ${r.glass.relay.frames} | ${f(r.glass.relay.p50, 0)} | ${f(r.glass.relay.p99, 0)} |`,
    '',
    `Relay p50 minus direct p50, round by round: ${r.glass.roundDifferences.map((d) => `${f(d, 0)} ms`).join(', ')}.`,
    '',
    '### Idle (no viewer, camera closed by its idle stop)',
    '',
    `CPU ${f(r.idle.cpuPercent, 2)} % of a core over ${f(r.idle.seconds, 0)} s; RSS ${r.idle.rssMb} MiB after ${f(r.idle.uptimeSeconds / 60, 1)} min of uptime; upstream sessions ${r.idle.upstreamCameraSessions}, decoder processes ${r.idle.decoderProcesses}.`,
    '',
    '### One core (`taskset -c 0` on the cockpit), the stand-in for a small ARM board',
    '',
    '| Viewers (/ws state) | Frames/viewer/s | Delivered | p99 gap (ms) | Cockpit CPU | RSS (MiB) |',
    '|---|---|---|---|---|---|',
    ...r.oneCore.state.map(
      (s) => `| ${s.viewers} | ${f(s.framesPerViewerPerSecond, 2)} | ${f(s.deliveredPercent, 2)} % | ${f(s.p99GapMs)} | ${f(s.cpuPercent)} % | ${s.rssMb} |`,
    ),
    '',
    ...RELAY_HEADER,
    ...relayRows(r.oneCore.relay),
    '',
    'Its send floor is in the floor table above.',
    '',
    '### Relay targets',
    '',
    '| Target | Figure | |',
    '|---|---|---|',
    `| added latency p50 < 5 ms (worst phase) | ${f(medianWorst, 3)} ms | ${pass(medianWorst < 5)} |`,
    `| added latency p99 < 5 ms (worst phase) | ${f(worst, 3)} ms | ${pass(worst < 5)} |`,
    `| the same, with the wait behind a picture's earlier packets (picture p99, worst phase) | ${f(pictureWorst, 2)} ms | ${pass(pictureWorst < 5)} |`,
    `| glass to glass: relay adds ≤ 50 ms (p50, median of ${r.glass.rounds} rounds) | ${f(r.glass.addedP50, 0)} ms | ${pass(r.glass.addedP50 <= 50)} |`,
    `| one upstream session, 0 decoders with only WebRTC viewers | ${sessions ? 'always 1' : 'not always 1'}, ${decoders ? '0 decoders' : 'a decoder ran'} | ${pass(sessions && decoders)} |`,
    `| idle CPU < 1 % of a core | ${f(r.idle.cpuPercent, 2)} % | ${pass(r.idle.cpuPercent < 1)} |`,
    `| idle RSS < 150 MiB | ${r.idle.rssMb} MiB | ${pass(r.idle.rssMb < 150)} |`,
    '',
  ].join('\n');
}
