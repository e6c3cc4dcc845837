import { describe, expect, it } from 'vitest';
import { createStateSocket, type SocketLike } from './state-socket.ts';

class FakeSocket implements SocketLike {
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  binaryType?: string;
  send(): void {}
  close(): void {}
}

function open(onBinary?: (data: ArrayBuffer) => void) {
  const sockets: FakeSocket[] = [];
  const frames: unknown[] = [];
  createStateSocket({
    url: 'ws://cockpit/ws',
    createSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    setTimer: () => null,
    clearTimer: () => undefined,
    onFrame: (frame) => frames.push(frame),
    onPresence: () => undefined,
    ...(onBinary ? { onBinary } : {}),
  });
  return { socket: sockets[0]!, frames };
}

describe('createStateSocket binary messages', () => {
  it('asks for ArrayBuffers and hands binary messages to onBinary, text to onFrame', () => {
    const binary: ArrayBuffer[] = [];
    const { socket, frames } = open((data) => binary.push(data));
    expect(socket.binaryType).toBe('arraybuffer');
    socket.onopen?.({});
    const picture = new Uint8Array([1, 16, 0, 0]).buffer;
    socket.onmessage?.({ data: picture });
    socket.onmessage?.({ data: '{"type":"health"}' });
    expect(binary).toEqual([picture]);
    expect(frames).toEqual([{ type: 'health' }]);
  });

  it('leaves the binary type alone and drops binary messages without a listener', () => {
    const { socket, frames } = open();
    expect(socket.binaryType).toBeUndefined();
    socket.onmessage?.({ data: new ArrayBuffer(4) });
    expect(frames).toEqual([]);
  });
});
