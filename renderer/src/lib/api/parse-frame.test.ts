import { describe, expect, it } from 'vitest';
import { parseFrame } from './parse-frame.ts';

describe('parseFrame', () => {
  it('reads a typed JSON object', () => {
    expect(parseFrame('{"type":"state","loopHz":15}')).toEqual({ type: 'state', loopHz: 15 });
  });

  it('passes unknown frame types through for the caller to ignore', () => {
    expect(parseFrame('{"type":"future","x":1}')).toEqual({ type: 'future', x: 1 });
  });

  it.each([
    ['not json', 'not json'],
    ['an array', '[1,2]'],
    ['null', 'null'],
    ['an object without type', '{"loopHz":15}'],
    ['a non-string type', '{"type":3}'],
  ])('drops %s', (_name, text) => {
    expect(parseFrame(text)).toBeNull();
  });

  it('drops binary messages', () => {
    expect(parseFrame(new ArrayBuffer(4))).toBeNull();
  });
});
