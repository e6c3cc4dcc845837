/**
 * Ogg pages around Opus packets (RFC 3533 pages, RFC 7845 Ogg Opus), so that ffmpeg can decode
 * the microphone's RTP payloads from a pipe: the two header pages first, then one page per
 * packet. One packet per page keeps the decoder's input as fresh as the RTP it came from; a
 * page's granule position counts 48 kHz samples to the end of its packet.
 */

/** RFC 3533 CRC-32: polynomial 0x04c11db7, not reflected, initial value 0. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i += 1) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit += 1) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

export function oggCrc(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  return crc;
}

const BOS = 0x02;
/** RFC 7845 §4.2: a decoder discards this many samples at the start (libopus' usual lookahead). */
const PRE_SKIP = 312;

export interface OggOpusWriter {
  /** OpusHead and OpusTags, each on its own page; write them first. */
  headers(): Buffer;
  /** One page holding one Opus packet of `samples` 48 kHz samples. */
  packet(opus: Buffer, samples: number): Buffer;
}

/** The longest packet one page holds: 255 lacing values, the last under 255. */
export const MAX_OGG_PACKET_BYTES = 255 * 255 - 1;

function lacing(length: number): number[] {
  const table = new Array<number>(Math.floor(length / 255)).fill(255);
  table.push(length % 255);
  return table;
}

export function createOggOpusWriter(options: { channels: 1 | 2; serial?: number }): OggOpusWriter {
  const serial = options.serial ?? Math.floor(Math.random() * 0xffffffff);
  let sequence = 0;
  let granule = 0n;

  const page = (data: Buffer, flags: number, position: bigint): Buffer => {
    const table = lacing(data.length);
    if (table.length > 255) throw new Error(`an Opus packet of ${data.length} bytes does not fit one Ogg page`);
    const header = Buffer.alloc(27 + table.length);
    header.write('OggS', 0, 'latin1');
    header.writeUInt8(0, 4);
    header.writeUInt8(flags, 5);
    header.writeBigInt64LE(position, 6);
    header.writeUInt32LE(serial, 14);
    header.writeUInt32LE(sequence, 18);
    sequence += 1;
    header.writeUInt8(table.length, 26);
    Buffer.from(table).copy(header, 27);
    const whole = Buffer.concat([header, data]);
    whole.writeUInt32LE(oggCrc(whole), 22);
    return whole;
  };

  return {
    headers() {
      const head = Buffer.alloc(19);
      head.write('OpusHead', 0, 'latin1');
      head.writeUInt8(1, 8);
      head.writeUInt8(options.channels, 9);
      head.writeUInt16LE(PRE_SKIP, 10);
      head.writeUInt32LE(48_000, 12);
      head.writeInt16LE(0, 16);
      head.writeUInt8(0, 18);
      const vendor = Buffer.from('robot-cockpit', 'latin1');
      const tags = Buffer.alloc(16 + vendor.length);
      tags.write('OpusTags', 0, 'latin1');
      tags.writeUInt32LE(vendor.length, 8);
      vendor.copy(tags, 12);
      tags.writeUInt32LE(0, 12 + vendor.length);
      return Buffer.concat([page(head, BOS, 0n), page(tags, 0, 0n)]);
    },
    packet(opus, samples) {
      granule += BigInt(samples);
      return page(opus, 0, granule);
    },
  };
}
