/** Web Push: the public entry of server/push. */
export { createPush, sampleOf, type Push, type PushConsole, type PushOptions } from './push-service.ts';
export type { PushSettingsPatch, PushSettingsView, SendResult } from '../contract/push.ts';
export { PUSH_KINDS, type PushKind, type PushPayload } from './kinds.ts';
export { DEFAULT_SUBJECT, parseSettingsPatch } from './push-settings.ts';
export { parseSubscribeBody, parseUnsubscribeBody } from './subscription-input.ts';
export { subscriberOf } from './credential.ts';
export { DEFAULT_TRIGGER_TIMINGS, type TriggerTimings } from './push-triggers.ts';
