import { describe, expect, it } from 'vitest';
import { fitReply, jsonBytes } from './reply-fit.ts';

const bytes = (s: string) => new TextEncoder().encode(s).byteLength;

describe('fitReply', () => {
  it('leaves a small reply alone', () => {
    expect(fitReply({ result: 'hello' })).toBe('{"result":"hello"}');
  });

  it('trims a long text so the serialised reply fits 8192 bytes exactly or just under', () => {
    const out = fitReply({ result: 'a'.repeat(20_000) });
    expect(bytes(out)).toBeLessThanOrEqual(8192);
    expect(bytes(out)).toBeGreaterThan(8100);
    const parsed = JSON.parse(out) as { result: string };
    expect(parsed.result).toMatch(/… \[trimmed: \d+ of 20000 characters not sent\]$/);
  });

  it('counts bytes, not characters, and never splits a surrogate pair', () => {
    const out = fitReply({ result: '😀'.repeat(5000) + 'é'.repeat(5000) });
    expect(bytes(out)).toBeLessThanOrEqual(8192);
    const text = (JSON.parse(out) as { result: string }).result;
    expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('accounts for JSON escaping', () => {
    const out = fitReply({ result: '"\n\\'.repeat(4000) });
    expect(bytes(out)).toBeLessThanOrEqual(8192);
  });

  it('keeps image references and trims the text around them', () => {
    const images = [{ url: 'https://w.example/media/abc', format: 'png' }];
    const out = JSON.parse(fitReply({ result: 'x'.repeat(9000), images })) as { images: unknown };
    expect(out.images).toEqual(images);
  });

  it('drops images from the end when even an empty text cannot fit', () => {
    const images = Array.from({ length: 200 }, (_, i) => ({
      url: `https://w.example/media/${'k'.repeat(40)}${i}`,
      format: 'png',
    }));
    const out = fitReply({ result: 'text', images });
    expect(bytes(out)).toBeLessThanOrEqual(8192);
    const parsed = JSON.parse(out) as { images: Array<{ url: string }> };
    expect(parsed.images.length).toBeGreaterThan(0);
    expect(parsed.images.length).toBeLessThan(200);
    expect(parsed.images[0]?.url).toBe(images[0]?.url);
    // Dropping images made room, so the short text is sent whole.
    expect(parsed).toMatchObject({ result: 'text' });
  });

  it('measures like the limit does', () => {
    expect(jsonBytes({ result: 'é' })).toBe(bytes('{"result":"é"}'));
  });
});
