/**
 * Public entry of the platform client (docs/architecture.md, "Folders and the direction of imports"): main/ imports only from here.
 */
export { createPlatformClient } from './platform-client.ts';
export type { PlatformClient, PlatformClientDeps } from './platform-client.ts';
export type { PlatformTiming } from './device-runtime.ts';
export type { PlatformStatus, FirmwareStatus, FirmwareState, HaltReason, LastError } from './status.ts';
export { createFileSecretStore, createMemorySecretStore } from './secret-store.ts';
export type { SecretStore, FileSecretStoreOptions } from './secret-store.ts';
export { checkEnrolInput } from './identity.ts';
export type { DeviceIdentity, IdentityRefusal } from './identity.ts';
export type { EnrolFailure, SessionEnrolInput } from './enrolment.ts';
export type { FleetTurn, FleetTurnResult, FleetImage } from './envelopes.ts';
// The wire shapes the client carries are the contract's (docs/contract.md).
export type { PlatformEndpointEnrolInput, PlatformEnrolInput, PlatformNotice } from '../server/contract/index.ts';
export type { FirmwareUpdater } from './firmware/firmware-poller.ts';
export type { StagedBundle } from './firmware/bundle.ts';
export type { DeviceRoutes, TaskResultInput, TranscriptInput, MediaInput, StoredMedia } from './device-routes.ts';
export { EVENT_KINDS, MEDIA_TYPES } from './limits.ts';
export type { DeviceEventKind } from './limits.ts';
export { USE_DEVICE } from './use-device-tool.ts';
export type { HeardTranscript } from './transcript-report.ts';
export type { ToolDefinition, ToolContext } from './use-device-tool.ts';
export type { RelaySendKind, RelaySendResult } from './relay-send.ts';
export { checkPlatformUrl, privateLanOrigin } from './url-policy.ts';
export { AskError } from './device-ask.ts';
export type { AskEvent, AskInput } from './device-ask.ts';
export type { PlatformLog, Scheduler, FetchLike, Outcome, PlatformFailure, FailureKind } from './types.ts';
