/**
 * The platform card's requests and the notices the platform raises (docs/platform.md): the bodies
 * of POST /api/console/platform/enrol, /enrol-session and /enrol-endpoint, what the endpoint
 * enrolment answers, and a `{type: "notify"}` frame's notice. One declaration for the dashboard,
 * the cockpit's routes and the platform client that carries them out (docs/contract.md).
 */

/** The pasted enrolment (platform URL, device id, device token); also what ROBOT_PLATFORM_* give. */
export interface PlatformEnrolInput {
  platformUrl: string;
  deviceId: string;
  token: string;
}

/** Enrolment for an owner who has a session or command-line token. */
export interface PlatformSessionEnrolInput {
  platformUrl: string;
  sessionToken: string;
  /** The device's name in the owner's fleet, 1-64 characters. */
  name: string;
  /** Also keep the session token, so the robot's agent can reach the owner's other devices. */
  keepSession: boolean;
}

/**
 * Body of POST /api/console/platform/enrol-endpoint: where the platform reaches this robot. The
 * bearer the platform presents is the cockpit's own to choose, so a page never sends it
 * (server/desktop/routes/platform-endpoint-route.ts).
 */
export interface PlatformEndpointEnrolBody {
  platformUrl: string;
  sessionToken: string;
  name: string;
  /** https on a public host name; the platform keeps its origin. */
  url: string;
}

/** Endpoint enrolment as the platform client runs it: the body plus the bearer the platform presents. */
export interface PlatformEndpointEnrolInput extends PlatformEndpointEnrolBody {
  secret: string;
}

/** The endpoint device the platform created (`{endpoint}` of enrol-endpoint); the cockpit keeps no record of it. */
export interface PlatformEndpointEnrolled {
  platformUrl: string;
  deviceId: string;
  /** The origin the platform dials. */
  url: string;
}

/** GET /api/console/platform on a cockpit with no platform client wired in. */
export interface PlatformUnavailable {
  available: false;
  enrolled: false;
}

/** A notify envelope (the push mirror, docs/platform.md, "Web Push"), as a `notify` frame carries it. */
export interface PlatformNotice {
  title: string;
  body: string;
  tag: string;
  url: string;
}
