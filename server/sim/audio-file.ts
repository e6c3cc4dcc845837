/**
 * Just enough audio-file knowledge for the sound routes: the duration of a WAV from its header,
 * and a content probe standing in for the daemon's GStreamer check of uploads (docs/daemon.md, "Media").
 */

/** Seconds of audio in a RIFF/WAVE (or RF64-less) buffer, or null when it is not a readable WAV. */
export function wavDuration(buf: Buffer): number | null {
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') return null;
  let byteRate: number | null = null;
  let offset = 12;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ' && body + 16 <= buf.length) {
      byteRate = buf.readUInt32LE(body + 8);
    } else if (id === 'data') {
      if (!byteRate) return null;
      // Streamed WAVs carry a placeholder size (0 or 0xFFFFFFFF): count what is actually there.
      const available = buf.length - body;
      const bytes = size === 0 || size === 0xffffffff || size > available ? available : size;
      return bytes / byteRate;
    }
    offset = body + size + (size % 2);
  }
  return null;
}

/** Magic-number check per allowed extension; loose like a decoder probe, strict enough to refuse junk. */
export function looksLikeAudio(ext: string, buf: Buffer): boolean {
  const ascii = (from: number, to: number): string => buf.toString('ascii', from, to);
  switch (ext) {
    case '.wav':
      return wavDuration(buf) !== null;
    case '.ogg':
    case '.oga':
    case '.opus':
      return ascii(0, 4) === 'OggS';
    case '.flac':
      return ascii(0, 4) === 'fLaC';
    case '.m4a':
      return ascii(4, 8) === 'ftyp';
    case '.mp3':
      return ascii(0, 3) === 'ID3' || isFrameSync(buf);
    case '.aac':
      return ascii(0, 3) === 'ID3' || isFrameSync(buf) || ascii(0, 4) === 'ADIF';
    default:
      return false;
  }
}

function isFrameSync(buf: Buffer): boolean {
  return buf.length >= 2 && buf[0] === 0xff && ((buf[1] ?? 0) & 0xe0) === 0xe0;
}

/** A valid PCM WAV of the given length, for tests and tools. */
export function makeWav(seconds: number, sampleRate = 16000, channels = 1, bitsPerSample = 16): Buffer {
  const blockAlign = (channels * bitsPerSample) / 8;
  const dataBytes = Math.round(seconds * sampleRate) * blockAlign;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(bitsPerSample, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, Buffer.alloc(dataBytes)]);
}
