/**
 * What an Opus packet's first byte says (RFC 6716 §3.1): how many 48 kHz samples it holds, and
 * the byte a lost packet of the same kind is replaced with. A packet that is only a TOC byte
 * (code 0, one frame of zero bytes) makes the decoder conceal the loss (§3.2.1, "PLC").
 */

/** Frame length in 48 kHz samples per TOC configuration (0..31), RFC 6716 table 2. */
function frameSamples(config: number): number {
  if (config < 12) return [480, 960, 1920, 2880][config % 4] ?? 960;
  if (config < 16) return config % 2 === 0 ? 480 : 960;
  return [120, 240, 480, 960][config % 4] ?? 960;
}

/**
 * The most one packet holds, 120 ms (§3.2.5). A code 3 packet's frame count could claim 3.78 s:
 * taken as said, it moved the expected timestamp so far that the packets after it were dropped
 * as already played, and its length alone counted the decoder seconds behind (opus-decoder.ts).
 */
const MAX_PACKET_SAMPLES = 5760;

/** Samples (48 kHz) in one Opus packet; 0 when the packet is malformed. */
export function opusPacketSamples(packet: Buffer): number {
  const toc = packet[0];
  if (toc === undefined) return 0;
  const code = toc & 0x03;
  const frames = code === 0 ? 1 : code === 3 ? (packet[1] ?? 0) & 0x3f : 2;
  const samples = frames * frameSamples(toc >> 3);
  return samples > MAX_PACKET_SAMPLES ? 0 : samples;
}

/** A stand-in for one lost packet like `like`: one empty frame of the same configuration. */
export function concealmentPacket(like: Buffer): Buffer {
  return Buffer.from([(like[0] ?? 0x78) & 0xfc]);
}
