import { describe, expect, it } from 'vitest';
import { TEXT_MEDIA_TYPE } from './limits.ts';
import { offloadText, uploadImages, type Upload } from './media-offload.ts';
import { fitReply } from './reply-fit.ts';

const stored: Upload = (input) =>
  Promise.resolve({
    ok: true,
    value: { key: 'k', url: `https://p.example/media/k-${input.data.byteLength}`, bytes: 1 },
  });
const refused: Upload = () =>
  Promise.resolve({
    ok: false,
    failure: { kind: 'bad_request', message: 'unsupported type', status: 400, retryable: false },
  });

describe('media offload', () => {
  it('keeps a text that fits and stores one that does not, as UTF-8 text', async () => {
    const seen: string[] = [];
    const upload: Upload = (input) => {
      seen.push(input.contentType);
      return stored(input);
    };
    expect(await offloadText(upload, 'short')).toEqual({ text: 'short' });
    expect(seen).toEqual([]);
    const out = await offloadText(upload, 'é'.repeat(5000));
    expect(seen).toEqual([TEXT_MEDIA_TYPE]);
    expect(out.url).toBe('https://p.example/media/k-10000');
    expect(out.text).toMatch(
      /^é{1000}\n… \[the whole result \(10000 bytes\) is at https:\/\/p\.example\/media\/k-10000\]$/,
    );
  });

  it('leaves the text for trimming when the platform refuses to store it', async () => {
    const out = await offloadText(refused, 'x'.repeat(9000));
    expect(out).toEqual({ text: 'x'.repeat(9000) });
    expect(fitReply({ result: out.text })).toMatch(/\[trimmed: \d+ of 9000 characters not sent\]"\}$/);
  });

  it('turns an image that cannot be stored into a note and keeps the others', async () => {
    let n = 0;
    const flaky: Upload = (input) => ((n += 1) === 1 ? refused(input) : stored(input));
    const out = await uploadImages(flaky, [
      { data: new Uint8Array([1]), contentType: 'image/png' },
      { data: new Uint8Array([1, 2]), contentType: 'image/jpeg' },
    ]);
    expect(out).toEqual({
      refs: [{ url: 'https://p.example/media/k-2', format: 'jpeg' }],
      notes: ['[image not sent: unsupported type]'],
    });
  });
});
