/**
 * A client of the gst-webrtc signalling protocol that webrtcsink's built-in server speaks on
 * ws://<robot>:8443 (docs/daemon.md, "Media"; gst-plugins-rs net/webrtc/protocol): JSON text
 * messages tagged by `type`. The server greets every socket with `welcome {peerId}`; the
 * connection counts as open only after that.
 */
import WebSocket from 'ws';

export type SignallingMessage = Record<string, unknown> & { type: string };

export interface SignallingClient {
  readonly peerId: string;
  send(message: Record<string, unknown>): void;
  close(): void;
}

export interface ConnectOptions {
  timeoutMs: number;
  onMessage(message: SignallingMessage): void;
  /** The server went away or the socket failed, after the welcome. */
  onClose(reason: string): void;
}

function parse(data: WebSocket.RawData): SignallingMessage | undefined {
  try {
    const value = JSON.parse(data.toString()) as unknown;
    if (typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string') {
      return value as SignallingMessage;
    }
  } catch {
    // Not JSON: ignored like any other message this client does not understand.
  }
  return undefined;
}

function clientOver(ws: WebSocket, peerId: string, closedByUs: { value: boolean }): SignallingClient {
  return {
    peerId,
    send: (message) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    },
    close: () => {
      closedByUs.value = true;
      ws.terminate();
    },
  };
}

/** Opens the socket and resolves once welcomed; rejects on refusal, error or timeout. */
export function connectSignalling(url: string, options: ConnectOptions): Promise<SignallingClient> {
  const ws = new WebSocket(url, {
    handshakeTimeout: options.timeoutMs,
    perMessageDeflate: false,
    maxPayload: 4 * 1024 * 1024,
  });
  const closedByUs = { value: false };
  let welcomed = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`no welcome from ${url} within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const fail = (why: string): void => {
      clearTimeout(timer);
      reject(new Error(`signalling ${url}: ${why}`));
    };
    ws.on('message', (data) => {
      const message = parse(data);
      if (!message) return;
      if (welcomed) return options.onMessage(message);
      if (message.type !== 'welcome' || typeof message.peerId !== 'string') return;
      welcomed = true;
      clearTimeout(timer);
      resolve(clientOver(ws, message.peerId, closedByUs));
    });
    ws.on('error', (error) => !welcomed && fail(error.message));
    ws.on('close', (code) => {
      if (!welcomed) fail(`closed before the welcome (${code})`);
      else if (!closedByUs.value) options.onClose(`signalling connection closed (${code})`);
    });
  });
}
