/**
 * Event receipts: every control produces one `{type: "event"}` frame saying what happened, the
 * values applied and which kind of credential asked (docs/contract.md, "Events"). The event log
 * injected as `emit` assigns id and time and broadcasts it on /ws.
 */
import type { CredentialKind, EventFrame } from '../contract/ws.ts';
import type { ClampNote } from '../contract/motion.ts';

export type Receipt = Omit<EventFrame, 'id' | 'time'>;
export type Emit = (event: Receipt) => void;

export function receipt(
  action: string,
  text: string,
  credential: CredentialKind,
  values?: Record<string, unknown>,
): Receipt {
  return values ? { type: 'event', action, text, values, credential } : { type: 'event', action, text, credential };
}

/** `20°`, `-5 mm`: one decimal at most, so receipts read like a person wrote them. */
export function fmt(value: number, unit: string): string {
  const rounded = Math.round(value * 10) / 10 + 0;
  return unit === '°' ? `${rounded}°` : `${rounded} ${unit}`;
}

/** ` (yaw clamped from 200°)` for each clamped field, or nothing. */
export function clampText(notes: Record<string, ClampNote>, units: Record<string, string>): string {
  const parts = Object.entries(notes).map(([name, n]) => `${name} clamped from ${fmt(n.requested, units[name] ?? '')}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}
