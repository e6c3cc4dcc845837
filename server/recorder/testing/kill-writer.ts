/**
 * A process that writes a ring file without end and prints `flushed <n>` each time a chunk
 * holding messages 0..n-1 has reached the file. The kill test sends it SIGKILL mid-write.
 * Usage: tsx server/recorder/testing/kill-writer.ts <file>
 */
import { createMcapFile } from '../mcap-file.ts';

const [path] = process.argv.slice(2) as [string];
const file = await createMcapFile(path);
const encoder = new TextEncoder();
const start = Date.UTC(2026, 10, 21, 12, 0, 0);
let bytes = file.bytes;
for (let n = 0; ; n += 1) {
  const body = { timestamp: new Date(start + n).toISOString(), seq: n, head: { yaw: n % 90 }, pad: 'x'.repeat(400) };
  await file.add('state', start + n * 20, encoder.encode(JSON.stringify(body)));
  if (file.bytes !== bytes) {
    bytes = file.bytes;
    process.stdout.write(`flushed ${n + 1}\n`);
  }
  // Let the parent's signal land between writes as well as inside them.
  if (n % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
}
