import { describe, expect, it } from 'vitest';
import { extractPairCode } from './pair-url.ts';

describe('extractPairCode', () => {
  it('reads the code and removes it from the address', () => {
    expect(extractPairCode('https://robot.local:8098/?pair=Abc-123_x')).toEqual({ code: 'Abc-123_x', cleanedUrl: '/' });
    expect(extractPairCode('https://robot.local:8098/?view=a&pair=p%2Bq#top')).toEqual({ code: 'p+q', cleanedUrl: '/?view=a#top' });
  });

  it('cleans an empty code without using it', () => {
    expect(extractPairCode('http://localhost:8097/?pair=')).toEqual({ code: null, cleanedUrl: '/' });
  });

  it('leaves other addresses alone', () => {
    expect(extractPairCode('http://localhost:8097/#security')).toEqual({ code: null, cleanedUrl: null });
  });
});
