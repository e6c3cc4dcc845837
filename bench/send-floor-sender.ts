/**
 * The send floor's sender (bench/send-floor.ts starts it as a process of its own): the least any
 * Node relay must do per packet and viewer, and nothing else. Each picture is encrypted for each
 * viewer with AES-128-GCM, as SRTP's AEAD profile does (RFC 7714, the profile werift and
 * Chromium agree on), and handed to a UDP socket of that viewer's own, as a peer connection
 * has. No WebRTC library, no queue, no promise: one synchronous loop, a viewer's whole picture
 * at a time, the first viewer moving on by one each picture, as the relay's turns do.
 *
 * With two threads the viewers are split in halves: the main thread takes each picture as it
 * comes, hands it to a worker thread for the second half and sends to the first half itself, as
 * a relay whose fan-out is shared with one worker would at best. A worker's share starts late by
 * the hand-over, which counts, as it would for such a relay.
 *
 * The traffic has the simulator's shape (server/sim/camera-session.ts, rtp-h264.ts): 15 pictures
 * a second, a keyframe every 30 in 12 packets of up to 1200 bytes, the others in one.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import {
  createLatencyHistogram,
  type LatencyCounts,
  type LatencyHistogram,
} from '../server/camera/relay/latency-histogram.ts';

export interface FloorStart {
  ports: number[];
  seconds: number;
}

/**
 * Threads that send, the process's first argument: 1, or 2 with the viewers split between them.
 * The worker starts with the process, before the bench places its threads on the cores (a thread
 * started later would inherit the main thread's core).
 */
export type FloorThreads = 1 | 2;

export interface FloorReport {
  /** A picture's arrival → its last packet handed to a viewer's socket, once per picture and viewer. */
  pictureCounts: LatencyCounts;
  /** The same for every packet (all of a picture's packets arrive together here). */
  packetCounts: LatencyCounts;
  seconds: number;
  /** This process's CPU over the window, every thread, as a percentage of one core. */
  cpuPercent: number;
}

const FPS = 15;
const GOP = 30;
const KEYFRAME = [...Array.from({ length: 11 }, () => 1200), 700];
const DELTA = [700];
const HEADER_BYTES = 12;
const PAYLOADS = new Map([...KEYFRAME, ...DELTA].map((n) => [n, randomBytes(n)]));

/** Milliseconds on a clock both threads share (each thread's `performance.now()` has its own origin). */
const now = (): number => performance.timeOrigin + performance.now();

interface Viewer {
  socket: dgram.Socket;
  key: Buffer;
  salt: Buffer;
  sequence: number;
}

/** One thread's viewers and what it measured. */
interface Sending {
  viewers: Viewer[];
  pictures: LatencyHistogram;
  packets: LatencyHistogram;
}

/** What the main thread tells the worker: its viewers' ports, a picture (arrived at `now()`), the end. */
type ToWorker = { ports: number[] } | { picture: number; at: number } | 'end';

async function openViewer(port: number): Promise<Viewer> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  // Connected, a send skips the address lookup (a tick later) and reaches the kernel at once,
  // so the time read after it is the hand-over.
  await new Promise<void>((resolve) => socket.connect(port, '127.0.0.1', resolve));
  return { socket, key: randomBytes(16), salt: randomBytes(12), sequence: 0 };
}

async function openSending(ports: readonly number[]): Promise<Sending> {
  return {
    viewers: await Promise.all(ports.map(openViewer)),
    pictures: createLatencyHistogram(),
    packets: createLatencyHistogram(),
  };
}

/** One SRTP-shaped packet for a viewer: its header, the payload encrypted, the 16-byte tag. */
function protect(viewer: Viewer, payload: Buffer, marker: boolean, timestamp: number): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header[0] = 0x80;
  header[1] = (marker ? 0x80 : 0) | 102;
  header.writeUInt16BE(viewer.sequence, 2);
  header.writeUInt32BE(timestamp >>> 0, 4);
  header.writeUInt32BE(0x1234, 8);
  viewer.sequence = (viewer.sequence + 1) & 0xffff;
  const iv = Buffer.from(viewer.salt);
  iv.writeUInt16BE(iv.readUInt16BE(10) ^ viewer.sequence, 10);
  const cipher = createCipheriv('aes-128-gcm', viewer.key, iv);
  cipher.setAAD(header);
  const body = cipher.update(payload);
  cipher.final();
  return Buffer.concat([header, body, cipher.getAuthTag()]);
}

/** Picture number `picture`, arrived at `at`, to every viewer of this thread. */
function sendPicture(s: Sending, picture: number, at: number): void {
  const sizes = picture % GOP === 0 ? KEYFRAME : DELTA;
  const timestamp = picture * (90_000 / FPS);
  const { viewers } = s;
  if (viewers.length === 0) return;
  const first = picture % viewers.length;
  for (let k = 0; k < viewers.length; k += 1) {
    const viewer = viewers[(first + k) % viewers.length] as Viewer;
    sizes.forEach((size, i) => {
      const marker = i === sizes.length - 1;
      viewer.socket.send(protect(viewer, PAYLOADS.get(size) as Buffer, marker, timestamp));
      const ms = now() - at;
      s.packets.add(ms);
      if (marker) s.pictures.add(ms);
    });
  }
}

function closeSending(s: Sending): void {
  for (const viewer of s.viewers) viewer.socket.close();
}

/** Both threads' samples together. */
function merged(a: LatencyCounts, b: LatencyCounts): LatencyCounts {
  const length = Math.max(a.counts.length, b.counts.length);
  return { bucketMs: a.bucketMs, counts: Array.from({ length }, (_, i) => (a.counts[i] ?? 0) + (b.counts[i] ?? 0)) };
}

type Counts = Pick<FloorReport, 'pictureCounts' | 'packetCounts'>;

interface SendingWorker {
  open(ports: readonly number[]): Promise<void>;
  send(picture: number, at: number): void;
  finish(): Promise<Counts>;
}

/** The worker thread for the second half of the viewers. */
async function startWorker(): Promise<SendingWorker> {
  // The same file, with tsx's loader registered in the thread first (`--import tsx` is not).
  const source = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const worker = new Worker(source, { eval: true });
  const tell = (m: ToWorker): void => worker.postMessage(m);
  const next = <T>(): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (m: T) => {
        worker.off('error', reject);
        resolve(m);
      });
    });
  await next<'ready'>();
  return {
    async open(ports) {
      const opened = next<'open'>();
      tell({ ports: [...ports] });
      await opened;
    },
    send: (picture, at) => tell({ picture, at }),
    async finish() {
      const counts = next<Counts>();
      tell('end');
      const report = await counts;
      await worker.terminate();
      return report;
    },
  };
}

async function run({ ports, seconds }: FloorStart, worker: SendingWorker | undefined): Promise<FloorReport> {
  const half = worker ? Math.ceil(ports.length / 2) : ports.length;
  const own = await openSending(ports.slice(0, half));
  await worker?.open(ports.slice(half));
  let picture = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  // The window is a number of pictures, not a wait: it ends when the last one has been sent.
  const total = Math.round(seconds * FPS);
  await new Promise<void>((done) => {
    const timer = setInterval(() => {
      const at = now();
      worker?.send(picture, at);
      sendPicture(own, picture, at);
      picture += 1;
      if (picture < total) return;
      clearInterval(timer);
      done();
    }, 1000 / FPS);
  });
  const theirs = await worker?.finish();
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  closeSending(own);
  const pictureCounts = own.pictures.snapshot();
  const packetCounts = own.packets.snapshot();
  return {
    pictureCounts: theirs ? merged(pictureCounts, theirs.pictureCounts) : pictureCounts,
    packetCounts: theirs ? merged(packetCounts, theirs.packetCounts) : packetCounts,
    seconds: elapsed,
    cpuPercent: (cpu.user + cpu.system) / 1e4 / elapsed,
  };
}

/** The worker thread: opens its viewers' sockets, sends each picture it is handed, reports at the end. */
function runWorker(port: NonNullable<typeof parentPort>): void {
  let s: Sending | undefined;
  port.on('message', (m: ToWorker) => {
    if (m === 'end') {
      if (s) closeSending(s);
      const counts: Counts = {
        pictureCounts: s?.pictures.snapshot() ?? { bucketMs: 0, counts: [] },
        packetCounts: s?.packets.snapshot() ?? { bucketMs: 0, counts: [] },
      };
      port.postMessage(counts);
    } else if ('ports' in m) {
      void openSending(m.ports).then((opened) => {
        s = opened;
        port.postMessage('open');
      });
    } else if (s) sendPicture(s, m.picture, m.at);
  });
  port.postMessage('ready');
}

if (!isMainThread && parentPort) {
  runWorker(parentPort);
} else {
  const threads = Number(process.argv[2] ?? 1) as FloorThreads;
  const worker = threads === 2 ? await startWorker() : undefined;
  // A listener kept, not `once`: it keeps the channel, and so this process, alive until the bench
  // has read the report, put the process back on its cores and killed it.
  process.on('message', (start: FloorStart) => {
    void run(start, worker).then((report) => process.send?.(report));
  });
  process.send?.('ready');
}
