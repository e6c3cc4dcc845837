/**
 * The recorder's channels: one per kind of record, each with a JSON Schema (MCAP schema encoding
 * `jsonschema`, message encoding `json`). Camera frames and the head pose use Foxglove's
 * well-known schemas (`foxglove.CompressedImage`, `foxglove.PoseInFrame`), so Foxglove and
 * Lichtblick show the picture and plot the pose without any setup; the rest are the cockpit's own.
 */

type JsonSchema = Record<string, unknown>;

const time = {
  type: 'object',
  title: 'time',
  properties: { sec: { type: 'integer', minimum: 0 }, nsec: { type: 'integer', minimum: 0, maximum: 999999999 } },
  required: ['sec', 'nsec'],
};
const vector3 = {
  type: 'object',
  properties: { x: { type: 'number' }, y: { type: 'number' }, z: { type: 'number' } },
  required: ['x', 'y', 'z'],
};
const quaternion = {
  type: 'object',
  properties: { x: { type: 'number' }, y: { type: 'number' }, z: { type: 'number' }, w: { type: 'number' } },
  required: ['x', 'y', 'z', 'w'],
};

const compressedImage: JsonSchema = {
  title: 'foxglove.CompressedImage',
  description: 'A compressed image',
  type: 'object',
  properties: {
    timestamp: time,
    frame_id: { type: 'string' },
    data: { type: 'string', contentEncoding: 'base64' },
    format: { type: 'string' },
  },
  required: ['timestamp', 'frame_id', 'data', 'format'],
};

const poseInFrame: JsonSchema = {
  title: 'foxglove.PoseInFrame',
  description: 'A timestamped pose for an object or reference frame in 3D space',
  type: 'object',
  properties: {
    timestamp: time,
    frame_id: { type: 'string' },
    pose: {
      type: 'object',
      properties: { position: vector3, orientation: quaternion },
      required: ['position', 'orientation'],
    },
  },
  required: ['timestamp', 'frame_id', 'pose'],
};

const headPose = {
  type: 'object',
  properties: Object.fromEntries(['x', 'y', 'z', 'roll', 'pitch', 'yaw'].map((k) => [k, { type: 'number' }])),
};

const robotState: JsonSchema = {
  title: 'cockpit.RobotState',
  description: 'The robot state as GET /api/state answers it: degrees and millimetres',
  type: 'object',
  properties: {
    timestamp: { type: 'string' },
    ageMs: { type: 'number' },
    head: headPose,
    bodyYaw: { type: 'number' },
    antennas: { type: 'object', properties: { right: { type: 'number' }, left: { type: 'number' } } },
    motorMode: { type: ['string', 'null'] },
    loopHz: { type: 'number' },
    daemon: { type: 'object' },
    services: { type: 'object' },
  },
  required: ['timestamp', 'head', 'bodyYaw', 'antennas'],
};

const controlRequest: JsonSchema = {
  title: 'cockpit.ControlRequest',
  description: 'One control request: what was asked, by which kind of credential, and how it ended',
  type: 'object',
  properties: {
    action: { type: 'string' },
    path: { type: 'string' },
    credential: {
      type: 'string',
      description: 'token, passkey, local-window, loopback; anonymous when none was presented, invalid when a wrong one was',
    },
    outcome: { type: 'string', enum: ['ok', 'refused'] },
    code: { type: 'string' },
    status: { type: 'integer' },
    stage: {
      type: 'string',
      enum: ['gate', 'handler'],
      description: 'where a refusal came from: the access gate (credential, rate limit, origin) or the route',
    },
    input: { type: 'object' },
  },
  required: ['action', 'credential', 'outcome'],
};

const agentLogRow: JsonSchema = {
  title: 'cockpit.AgentLogRow',
  description: 'An agent log row: a prompt, an answer or a tool call with its result',
  type: 'object',
  properties: {
    id: { type: 'integer' },
    time: { type: 'string' },
    role: { type: 'string' },
    persona: { type: 'string' },
    text: { type: 'string' },
    tool: { type: 'object' },
    error: { type: 'boolean' },
  },
  required: ['id', 'role', 'persona', 'text'],
};

const eventReceipt: JsonSchema = {
  title: 'cockpit.EventReceipt',
  description: 'An event receipt: what a control did, the values applied, the credential kind',
  type: 'object',
  properties: {
    id: { type: 'integer' },
    time: { type: 'string' },
    action: { type: 'string' },
    text: { type: 'string' },
    values: { type: 'object' },
    credential: { type: 'string' },
  },
  required: ['action', 'text', 'credential'],
};

const healthChange: JsonSchema = {
  title: 'cockpit.HealthChange',
  description: 'The health picture, recorded when it changes',
  type: 'object',
  properties: {
    ok: { type: 'boolean' },
    presence: { type: 'string' },
    camera: { type: 'string' },
    streamHz: { type: 'number' },
    problems: { type: 'array', items: { type: 'string' } },
  },
  required: ['ok', 'presence', 'camera', 'problems'],
};

const appEvent: JsonSchema = {
  title: 'cockpit.AppEvent',
  description: 'An app on the robot started or stopped',
  type: 'object',
  properties: {
    app: { type: 'string' },
    phase: { type: 'string', enum: ['start', 'stop'] },
    detail: { type: 'string' },
  },
  required: ['app', 'phase'],
};

export const CHANNELS = {
  state: { topic: '/robot/state', schema: robotState },
  pose: { topic: '/robot/head_pose', schema: poseInFrame },
  camera: { topic: '/camera/jpeg', schema: compressedImage },
  control: { topic: '/control', schema: controlRequest },
  agent: { topic: '/agent/log', schema: agentLogRow },
  event: { topic: '/events', schema: eventReceipt },
  health: { topic: '/health', schema: healthChange },
  app: { topic: '/apps', schema: appEvent },
} as const satisfies Record<string, { topic: string; schema: JsonSchema }>;

export type ChannelKind = keyof typeof CHANNELS;
export const CHANNEL_KINDS = Object.keys(CHANNELS) as ChannelKind[];

export const kindOfTopic = (topic: string): ChannelKind | undefined =>
  CHANNEL_KINDS.find((kind) => CHANNELS[kind].topic === topic);

export function schemaName(kind: ChannelKind): string {
  return CHANNELS[kind].schema.title as string;
}
