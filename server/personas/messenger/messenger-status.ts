/**
 * What the dashboard shows of the messenger: its state and a line of detail, which bot it is,
 * whether it is pairing, the chats seen lately (allow one with a click), and problems. The same
 * state is the `messenger` line of the state object's services.
 */
import type { MessengerStatus } from '../../contract/personas.ts';
import type { ServiceState } from '../../contract/state.ts';

export function messengerService(status: MessengerStatus): ServiceState {
  const detail = `messenger: ${status.detail}`;
  if (status.state === 'off') return { state: 'off', detail };
  if (status.state === 'paused') return { state: 'paused', detail };
  if (status.state === 'failed' || status.state === 'no_token') return { state: 'stopped', detail };
  return { state: 'running', detail };
}
