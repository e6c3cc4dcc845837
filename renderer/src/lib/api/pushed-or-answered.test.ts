import { describe, expect, it } from 'vitest';
import { PushedOrAnswered } from './pushed-or-answered.ts';

function held<T>(value: T) {
  let release = (): void => {};
  const promise = new Promise<T>((resolve) => (release = () => resolve(value)));
  return { promise, release };
}

describe('an answer and the frames of the same fact', () => {
  it('keeps an answer no frame overtook', async () => {
    const fact = new PushedOrAnswered();
    fact.pushed();
    const request = held('answer');
    const asked = fact.ask(() => request.promise);
    request.release();
    expect(await asked).toEqual({ answer: 'answer', stale: false });
  });

  it('marks stale an answer that arrives after a frame pushed while it was in flight', async () => {
    const fact = new PushedOrAnswered();
    const request = held('older');
    const asked = fact.ask(() => request.promise);
    fact.pushed();
    request.release();
    expect(await asked).toEqual({ answer: 'older', stale: true });
    // The next request starts after that frame: its answer counts again.
    expect(await fact.ask(() => Promise.resolve('newer'))).toEqual({ answer: 'newer', stale: false });
  });
});
