/**
 * One message from an allowed chat: `/start` gets help, `/photo` a camera snapshot, anything
 * else runs as a turn of the persona "messenger" (robot tools only) and its answer goes back
 * as text; when the model took a snapshot during the turn, the picture goes with it (the
 * snapshot tool's rows in the agent log say so: the turn's own result carries only text).
 */
import type { AgentLog } from '../../agent/agent-log.ts';
import type { AgentRuntime } from '../../agent/agent-runtime.ts';
import type { WatchdogLimits } from '../../agent/watchdog.ts';
import { CAPTION_MAX, type BotApi } from './bot-api.ts';
import { HELP_REPLY, isCommand, messageParts, NO_PICTURE_REPLY, NOT_TEXT_REPLY } from './messenger-replies.ts';

export interface MessengerTurnDeps {
  api: BotApi;
  runtime: Pick<AgentRuntime, 'start'>;
  agentLog: Pick<AgentLog, 'page'>;
  snapshot(): Promise<Buffer | undefined>;
  limits: WatchdogLimits;
}

async function sendText(deps: MessengerTurnDeps, chatId: number, text: string, signal: AbortSignal): Promise<void> {
  for (const part of messageParts(text)) await deps.api.sendMessage(chatId, part, signal);
}

async function sendPhoto(
  deps: MessengerTurnDeps,
  chatId: number,
  caption: string,
  signal: AbortSignal,
): Promise<boolean> {
  const jpeg = await deps.snapshot();
  if (!jpeg) return false;
  await deps.api.sendPhoto(chatId, jpeg, caption && caption.length <= CAPTION_MAX ? caption : undefined, signal);
  return true;
}

/** Whether the turn that began at row `rowId` ran the snapshot tool successfully. */
function tookSnapshot(deps: MessengerTurnDeps, rowId: number): boolean {
  return deps.agentLog
    .page({ n: 300, after: rowId })
    .some(
      (r) =>
        r.persona === 'messenger' && r.role === 'tool' && r.tool?.name === 'snapshot' && r.tool.result !== undefined,
    );
}

async function runTurn(deps: MessengerTurnDeps, chatId: number, text: string, signal: AbortSignal): Promise<void> {
  let turn;
  try {
    // fleet: true = the robot's own tools only: a chat never reaches the owner's other devices.
    turn = deps.runtime.start({
      persona: 'messenger',
      prompt: text,
      fleet: true,
      credential: 'system',
      limits: deps.limits,
      signal,
    });
  } catch (error) {
    return sendText(deps, chatId, `Sorry, I cannot answer: ${(error as Error).message}.`, signal);
  }
  const result = await turn.done;
  if (signal.aborted) return;
  const answer = result.ok ? result.text.trim() : `Sorry, that did not work: ${result.error ?? 'the turn failed'}`;
  if (result.ok && tookSnapshot(deps, turn.rowId)) {
    const sent = await sendPhoto(deps, chatId, answer, signal);
    if (sent && answer.length <= CAPTION_MAX) return;
    if (!sent) return sendText(deps, chatId, answer ? `${answer}\n(${NO_PICTURE_REPLY})` : NO_PICTURE_REPLY, signal);
  }
  await sendText(deps, chatId, answer || 'Done.', signal);
}

export async function handleChatMessage(
  deps: MessengerTurnDeps,
  chatId: number,
  text: string,
  signal: AbortSignal,
): Promise<void> {
  if (text.trim() === '') return sendText(deps, chatId, NOT_TEXT_REPLY, signal);
  if (isCommand(text, 'start') || isCommand(text, 'help')) return sendText(deps, chatId, HELP_REPLY, signal);
  if (isCommand(text, 'photo')) {
    if (!(await sendPhoto(deps, chatId, '', signal))) await sendText(deps, chatId, NO_PICTURE_REPLY, signal);
    return;
  }
  await runTurn(deps, chatId, text, signal);
}
