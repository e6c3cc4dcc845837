/**
 * Which of two app overviews the page keeps. The overview reaches the page two ways: `apps` frames
 * from the cockpit's shared poll, and the answer to the page's own GET or action. The two travel
 * on different connections, so an answer computed before a frame can arrive after it; drawn
 * blindly, it would put back the state the frame had replaced (an app shown "Starting" for good,
 * since the poll sends a frame only on a change). Each overview says when its status was read
 * (`polledAt`, and the cockpit reads one at a time, so later means newer); an older one is dropped.
 */
import type { AppsOverview } from '../../../../server/contract/index.ts';

export function keepsNewer(shown: AppsOverview | null, incoming: AppsOverview): AppsOverview {
  if (shown === null) return incoming;
  return (incoming.polledAt ?? '') >= (shown.polledAt ?? '') ? incoming : shown;
}
