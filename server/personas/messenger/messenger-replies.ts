/**
 * What the bot says on its own (not the model): the pairing answer, help, and refusals. The
 * pairing answer carries nothing but the chat's own id and how to get allowed
 * (docs/platform.md, "Messaging-bot channel"), so a stranger learns nothing about the robot.
 */
import { MESSAGE_MAX } from './bot-api.ts';

export function pairingReply(chatId: number): string {
  return (
    `This robot is in pairing mode. Your chat id is ${chatId}.\n` +
    "Ask the robot's owner to allow this chat in the cockpit dashboard (Personas → Messenger → Allow); " +
    'until then this is the only answer you will get.'
  );
}

export const HELP_REPLY =
  'Hello! Write to me and I will answer, and act with my head, antennas and voice when you ask. ' +
  'Send /photo for a picture from my camera.';
export const PAUSED_REPLY = 'I am paused right now (the stop is latched or demo mode is on). Please try again later.';
export const NOT_TEXT_REPLY = 'I can only read text messages.';
export const NO_PICTURE_REPLY = 'My camera has no picture right now.';

/** Commands are `/name` or `/name@botname`, alone or followed by text. */
export function isCommand(text: string, name: string): boolean {
  return new RegExp(`^/${name}(@\\w+)?(\\s|$)`, 'i').test(text.trim());
}

/** A long answer as messages within the API's limit (at most three; a reply is not a book). */
export function messageParts(text: string): string[] {
  const parts: string[] = [];
  for (let at = 0; at < text.length && parts.length < 3; at += MESSAGE_MAX)
    parts.push(text.slice(at, at + MESSAGE_MAX));
  return parts;
}
