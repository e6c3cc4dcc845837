/** Words of the notifications card, kept apart from the markup so they are tested. */
import type { PushKind, SendResult } from './push-api.ts';

export const KIND_LABELS: Readonly<Record<PushKind, string>> = Object.freeze({
  daemon: 'Robot daemon down for over 30 s, and back',
  camera: 'Camera lost',
  stop: 'STOP pressed on another device',
  agent: 'Agent answers while no dashboard is open',
  platform: 'Notices from the agent platform',
});

export function deviceLine(enabled: boolean, subscribers: number): string {
  if (enabled) return 'This browser gets the robot’s notices, even with the dashboard closed.';
  const others = subscribers === 0 ? 'No browser gets them yet.' : `${plural(subscribers, 'browser')} get them.`;
  return `Off on this browser. ${others}`;
}

export function testNote(result: SendResult): string {
  if (result.sent === 0 && result.failed === 0) return 'No browser is subscribed: nothing was sent.';
  const parts = [`Sent to ${plural(result.sent, 'browser')}.`];
  if (result.pruned > 0)
    parts.push(
      `${plural(result.pruned, 'subscription')} had expired and ${result.pruned === 1 ? 'was' : 'were'} removed.`,
    );
  if (result.failed > 0) parts.push(`${result.failed} could not be reached.`);
  return parts.join(' ');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
