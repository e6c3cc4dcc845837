/**
 * One fact the page both asks for (a GET, or an action's answer) and is pushed over the socket
 * (a frame on every change). An answer can arrive after a frame that is newer than it: the server
 * answered, then the fact changed and was pushed, and the answer was the slower to arrive. Such an
 * answer is stale and must not overwrite the frame. Since every change is pushed, an answer that
 * a frame overtook can be dropped safely: the frame, or a later one, carries the change.
 */
export class PushedOrAnswered {
  #frames = 0;

  /** A frame of the fact arrived. */
  pushed(): void {
    this.#frames += 1;
  }

  /** Runs the request; `stale` when a frame of the fact arrived while it was in flight. */
  async ask<T>(request: () => Promise<T>): Promise<{ answer: T; stale: boolean }> {
    const before = this.#frames;
    const answer = await request();
    return { answer, stale: this.#frames !== before };
  }
}
