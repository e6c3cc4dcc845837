/**
 * createPlatformClient: the robot as a device of the hosted platform. It keeps the
 * identity, runs the heartbeat, relay and firmware loops, and exposes a status snapshot, a
 * change feed, the validated device routes and the use_device tool. What an envelope turns
 * into and which agent runs a turn are injected (docs/architecture.md, "Folders and the direction of imports").
 */
import type {
  PlatformChat,
  PlatformEndpointEnrolInput,
  PlatformEndpointEnrolled,
  PlatformEnrolInput,
} from '../server/contract/index.ts';
import { createChatStream } from './chat-stream.ts';
import type { PlatformClientDeps } from './client-deps.ts';
import { adopt, buildCore, enrolProved, loadIdentity } from './client-core.ts';
import { setChannel, setInstallAllowed } from './client-firmware.ts';
import { adoptToken, enrolWithSession, forgetOwnerSession, ownerTokenNow, setOwnerSession } from './client-owner.ts';
import { createDeviceAsk, type AskEvent, type AskInput } from './device-ask.ts';
import type { DeviceRoutes } from './device-routes.ts';
import { createEndpointWithSession, type EnrolFailure, type SessionEnrolInput } from './enrolment.ts';
import type { IdentityRefusal } from './identity.ts';
import { createSessionClient } from './session-client.ts';
import type { PlatformStatus } from './status.ts';
import { createTranscriptReporter, type HeardTranscript } from './transcript-report.ts';
import type { Outcome } from './types.ts';
import { createUseDeviceTool, type ToolDefinition } from './use-device-tool.ts';

export type { PlatformClientDeps };

/** What the console injects. */

/** The platform client the console wires. */
export interface PlatformClient {
  /** Loads the identity (environment first, then the stored one) and connects if enrolled. */
  start(): Promise<Outcome<PlatformStatus, IdentityRefusal>>;
  status(): PlatformStatus;
  onChange(listener: (status: PlatformStatus) => void): () => void;
  /** Enrols with pasted values: checked, proved with a heartbeat, stored, connected. */
  enrol(input: PlatformEnrolInput): Promise<Outcome<PlatformStatus, EnrolFailure>>;
  /**
   * Creates the device with the owner's session token (POST /api/devices), then enrols it; with
   * keepSession the token is also stored for use_device.
   */
  enrolWithSession(
    input: SessionEnrolInput & { keepSession?: boolean },
  ): Promise<Outcome<PlatformStatus, EnrolFailure>>;
  /** Proves the owner's session token (by listing devices) and stores it for use_device. */
  setOwnerSession(token: string): Promise<Outcome<PlatformStatus, EnrolFailure>>;
  /** Deletes the stored owner session token. */
  forgetOwnerSession(): Promise<Outcome<PlatformStatus, EnrolFailure>>;
  /**
   * Enrols this robot as an endpoint device the platform dials (`{name, kind: endpoint, url,
   * secret}` with the owner's session); answers its device id. The pull-device identity is untouched.
   */
  enrolEndpoint(
    input: PlatformEndpointEnrolInput,
  ): Promise<Outcome<Omit<PlatformEndpointEnrolled, 'url'>, EnrolFailure>>;
  /** After a rotation: a new device token through the owner's session (POST /api/devices/adopt), stored and connected. */
  adoptToken(): Promise<Outcome<PlatformStatus, EnrolFailure>>;
  /** Resumes the loops after disconnect(). */
  connect(): void;
  /** Stops the loops and keeps the identity. */
  disconnect(): Promise<void>;
  /** Stops the loops and deletes the stored identity. */
  forget(): Promise<void>;
  /** Switches the firmware channel; kept across restarts. */
  setFirmwareChannel(channel: string): Promise<Outcome<void, { kind: 'bad_request' | 'storage'; message: string }>>;
  /** The operator's consent to install a staged bundle once the robot is idle; kept across restarts. */
  setFirmwareInstall(allowed: boolean): Promise<Outcome<void, { kind: 'bad_request' | 'storage'; message: string }>>;
  /**
   * One owner-scoped agent turn on the platform (POST /api/devices/ask, streamed): yields the
   * answer's text and in-stream errors; throws an AskError when not enrolled, refused or cut off.
   */
  ask(input: AskInput): AsyncIterable<AskEvent>;
  /**
   * One agent turn through the platform chat stream (POST /api/chat) with the owner's session:
   * text, reasoning and the platform's tool frames as they arrive; the robot's tools run here
   * and answer through POST /api/chat/tool-result. Ends with one `done` or `error`, never throws.
   */
  chat: PlatformChat['chat'];
  /** task-result, event, transcript and media, checked against the documented limits. */
  readonly routes: DeviceRoutes;
  /** Stores an utterance the robot understood as an on-device transcript, while linked; never waits or throws. */
  reportTranscript(heard: HeardTranscript): void;
  readonly useDeviceTool: ToolDefinition;
}

/** Creates the platform client; nothing touches the network until start() or enrol(). */
export function createPlatformClient(deps: PlatformClientDeps): PlatformClient {
  const core = buildCore(deps);
  const { status, scheduler, loops, current } = core;
  const ask = createDeviceAsk({
    identity: () => current.identity,
    scheduler,
    fetch: deps.fetch,
    onOutcome: (path, outcome) => loops.onOutcome(path, outcome),
  });
  const chat = createChatStream({
    identity: () => current.identity,
    ownerToken: () => ownerTokenNow(core),
    http: core.http,
    upload: (input) => core.routes.media(input),
    scheduler,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
  return {
    start: () => loadIdentity(core),
    status: () => status.snapshot(scheduler.now()),
    onChange: (listener) => status.subscribe(listener),
    enrol: (input) => enrolProved(core, input),
    enrolWithSession: (input) => enrolWithSession(core, input),
    setOwnerSession: (token) => setOwnerSession(core, token),
    forgetOwnerSession: () => forgetOwnerSession(core),
    adoptToken: () => adoptToken(core),
    enrolEndpoint: (input) => createEndpointWithSession(input, deps.fetch, deps.requestTimeoutMs),
    connect() {
      if (current.identity && !status.snapshot(scheduler.now()).connected) loops.start();
    },
    disconnect: () => loops.stop(),
    async forget() {
      await loops.stop();
      await core.identities.forget();
      // The owner's token belongs with the identity: a robot moved elsewhere must not carry it.
      await core.owner.forget();
      adopt(core, null, null);
    },
    setFirmwareChannel: (next) => setChannel(core, next),
    setFirmwareInstall: (allowed) => setInstallAllowed(core, allowed),
    ask,
    chat: (input) => chat.chat(input),
    routes: core.routes,
    reportTranscript: createTranscriptReporter({
      routes: core.routes,
      status: () => status.snapshot(scheduler.now()),
      log: deps.log,
    }),
    useDeviceTool: createUseDeviceTool({
      scheduler,
      selfDeviceId: () => current.identity?.deviceId ?? null,
      session() {
        const token = ownerTokenNow(core);
        return Promise.resolve(token ? createSessionClient(core.http, token) : null);
      },
    }),
  };
}
