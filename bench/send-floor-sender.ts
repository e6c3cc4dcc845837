/**
 * The send floor's sender (bench/send-floor.ts starts it as a process of its own): the least any
 * Node relay must do per packet and viewer, and nothing else. Each picture is encrypted for each
 * viewer with AES-128-GCM, as SRTP's AEAD profile does (RFC 7714, the profile werift and
 * Chromium agree on), and handed to a UDP socket of that viewer's own, as a peer connection
 * has. No WebRTC library, no queue, no promise: one synchronous loop, a viewer's whole picture
 * at a time, the first viewer moving on by one each picture, as the relay's turns do.
 *
 * The traffic has the simulator's shape (server/sim/camera-session.ts, rtp-h264.ts): 15 pictures
 * a second, a keyframe every 30 in 12 packets of up to 1200 bytes, the others in one.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { createLatencyHistogram, type LatencyCounts } from '../server/camera/relay/latency-histogram.ts';

export interface FloorStart {
  ports: number[];
  seconds: number;
}

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

interface Viewer {
  socket: dgram.Socket;
  key: Buffer;
  salt: Buffer;
  sequence: number;
}

async function openViewer(port: number): Promise<Viewer> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  // Connected, a send skips the address lookup (a tick later) and reaches the kernel at once,
  // so the time read after it is the hand-over.
  await new Promise<void>((resolve) => socket.connect(port, '127.0.0.1', resolve));
  return { socket, key: randomBytes(16), salt: randomBytes(12), sequence: 0 };
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

async function run({ ports, seconds }: FloorStart): Promise<FloorReport> {
  const viewers = await Promise.all(ports.map(openViewer));
  const pictures = createLatencyHistogram();
  const packets = createLatencyHistogram();
  const payloads = new Map([...KEYFRAME, ...DELTA].map((n) => [n, randomBytes(n)]));
  let picture = 0;
  const sendPicture = (): void => {
    const at = performance.now();
    const sizes = picture % GOP === 0 ? KEYFRAME : DELTA;
    const timestamp = picture * (90_000 / FPS);
    const first = picture % viewers.length;
    picture += 1;
    for (let k = 0; k < viewers.length; k += 1) {
      const viewer = viewers[(first + k) % viewers.length] as Viewer;
      sizes.forEach((size, i) => {
        const marker = i === sizes.length - 1;
        viewer.socket.send(protect(viewer, payloads.get(size) as Buffer, marker, timestamp));
        const ms = performance.now() - at;
        packets.add(ms);
        if (marker) pictures.add(ms);
      });
    }
  };
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  // The window is a number of pictures, not a wait: it ends when the last one has been sent.
  const total = Math.round(seconds * FPS);
  await new Promise<void>((done) => {
    const timer = setInterval(() => {
      sendPicture();
      if (picture < total) return;
      clearInterval(timer);
      done();
    }, 1000 / FPS);
  });
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  for (const viewer of viewers) viewer.socket.close();
  return {
    pictureCounts: pictures.snapshot(),
    packetCounts: packets.snapshot(),
    seconds: elapsed,
    cpuPercent: (cpu.user + cpu.system) / 1e4 / elapsed,
  };
}

// A listener kept, not `once`: it keeps the channel, and so this process, alive until the bench
// has read the report, put the process back on its cores and killed it.
process.on('message', (start: FloorStart) => {
  void run(start).then((report) => process.send?.(report));
});
process.send?.('ready');
