/** Web Push: the public entry of server/push. */
export {
  createPush,
  sampleOf,
  type Push,
  type PushConsole,
  type PushOptions,
  type PushSettingsView,
} from './push-service.ts';
export { PUSH_KINDS, type PushKind, type PushPayload } from './kinds.ts';
export { DEFAULT_SUBJECT, parseSettingsPatch, type PushSettingsPatch } from './push-settings.ts';
export { parseSubscribeBody, parseUnsubscribeBody } from './subscription-input.ts';
export { subscriberOf } from './credential.ts';
export type { SendResult } from './push-sender.ts';
export { DEFAULT_TRIGGER_TIMINGS, type TriggerTimings } from './push-triggers.ts';
