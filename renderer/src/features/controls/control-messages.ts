/** What a refused control says on screen: short, and about what to do next. */
import type { ApiFailure } from '../../lib/api/api-result.ts';

export function refusalText(failure: Pick<ApiFailure, 'code' | 'message'>): string {
  switch (failure.code) {
    case 'STOP_LATCHED':
      return 'Refused: the robot is stopped. Resume first.';
    case 'ROBOT_APP_LOCKED':
      return `Refused: ${failure.message}.`;
    case 'RATE_LIMITED':
      return 'Too many commands at once. Wait a moment and try again.';
    case 'ORIGIN_REFUSED':
      return 'Refused: this page is not on the cockpit’s own address.';
    case 'DAEMON_UNREACHABLE':
    case 'DAEMON_STOPPED':
    case 'DAEMON_TIMEOUT':
      return `The robot did not take it: ${failure.message}.`;
    default:
      return failure.message.endsWith('.') ? failure.message : `${failure.message}.`;
  }
}
