/**
 * What the chat stream client sends (docs/platform.md, "Chat stream"): the messages within the
 * platform's 31-message window, the headers, and the payload of a client-side tool's result.
 * Where the contract is silent, the choices are written down in platform-client/README.md
 * ("Choices where the spec is open"): the robot's tools are named in the system message and in
 * `x-svc-metadata`, and a tool result is `{status, content: [{text}], images?: [{url, format}]}`.
 */
import type { PlatformChatMessage, PlatformClientTool, PlatformToolOutcome } from '../server/contract/platform.ts';
import { CHAT } from './limits.ts';
import { offloadText, uploadImages, type Upload } from './media-offload.ts';

/** JSON with every non-ASCII character escaped, so it is a valid header value. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Request headers: the owner's bearer, the device as the client session, the robot's tool names. */
export function chatHeaders(
  token: string,
  deviceId: string,
  tools: readonly PlatformClientTool[],
): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    authorization: `Bearer ${token}`,
    'x-svc-session': deviceId,
    'x-svc-metadata': asciiJson({ device: deviceId, clientTools: tools.map((t) => t.name) }),
  };
}

function toolSection(tools: readonly PlatformClientTool[]): string {
  if (tools.length === 0) return '';
  const lines = tools.map((t) => `- ${t.name}: ${t.description} Input schema: ${JSON.stringify(t.inputSchema)}`);
  return ['These tools run on the robot itself; call them as tools:', ...lines].join('\n');
}

/**
 * The messages to send: one system message (the prompt and the robot's tools) first, then the
 * newest others, at most 31 in all. The platform keeps only the last 31 (docs/platform.md, "Chat
 * request rules"); sending no more means it never drops the system message unseen. The kept
 * history starts at a user message.
 */
export function chatMessages(
  messages: readonly PlatformChatMessage[],
  tools: readonly PlatformClientTool[],
): PlatformChatMessage[] {
  const system = [...messages.filter((m) => m.role === 'system').map((m) => m.content), toolSection(tools)]
    .filter((text) => text.trim() !== '')
    .join('\n\n');
  const head: PlatformChatMessage[] = system ? [{ role: 'system', content: system }] : [];
  let rest = messages.filter((m) => m.role !== 'system').slice(-(CHAT.historyMessages - head.length));
  const firstUser = rest.findIndex((m) => m.role === 'user');
  if (firstUser > 0) rest = rest.slice(firstUser);
  return [...head, ...rest];
}

/** The tool-result payload: images and text over 8 KB go through POST /api/media as URLs. */
export async function toolPayload(upload: Upload, outcome: PlatformToolOutcome): Promise<Record<string, unknown>> {
  const images = (outcome.images ?? []).map((image) => ({
    data: new Uint8Array(Buffer.from(image.base64, 'base64')),
    contentType: image.mediaType,
  }));
  const { refs, notes } = await uploadImages(upload, images);
  const text = await offloadText(upload, [outcome.text, ...notes].join('\n'));
  return {
    status: outcome.isError ? 'error' : 'success',
    content: [{ text: text.text }],
    ...(refs.length > 0 ? { images: refs } : {}),
  };
}
