/**
 * What the dashboard's replay draws, read from a kept recording with the official indexed
 * reader: poses (thinned to 10 per second), STOP and operator-input markers, agent log rows and
 * receipts, health changes and the times of camera frames. Frames themselves are fetched one at
 * a time at the cursor (`frameAt`), so a long recording never travels whole to the browser.
 */
import type {
  KeptRecording,
  ReplayHealth,
  ReplayLine,
  ReplayMarker,
  ReplayPose,
  ReplaySummary,
} from '../contract/recordings.ts';
import type { RobotState } from '../contract/state.ts';
import { jsonOf, msOf, nsOf, openMcapReader } from './mcap-file.ts';
import { CHANNELS, kindOfTopic } from './schemas.ts';

const POSE_GAP_MS = 100;
/** Joystick frames closer than this are one operator input. */
const INPUT_BURST_MS = 1000;

interface Control {
  action: string;
  credential: string;
  outcome: string;
  code?: string;
}

export async function buildReplay(path: string, entry: KeptRecording): Promise<ReplaySummary> {
  const { reader, close } = await openMcapReader(path);
  try {
    const start = reader.statistics ? msOf(reader.statistics.messageStartTime) : Date.parse(entry.startedAt);
    const poses: ReplayPose[] = [];
    const markers: ReplayMarker[] = [];
    const lines: ReplayLine[] = [];
    const health: ReplayHealth[] = [];
    const frames: number[] = [];
    let lastPose = -Infinity;
    let lastJoystick = -Infinity;
    let end = start;
    for await (const message of reader.readMessages()) {
      const kind = kindOfTopic(reader.channelsById.get(message.channelId)?.topic ?? '');
      const t = msOf(message.logTime) - start;
      end = Math.max(end, t + start);
      if (kind === 'camera') {
        frames.push(t);
        continue;
      }
      const value = jsonOf(message) as Record<string, unknown>;
      if (kind === 'state' && t - lastPose >= POSE_GAP_MS) {
        const s = value as unknown as RobotState;
        poses.push({ t, head: s.head, bodyYaw: s.bodyYaw, antennas: s.antennas });
        lastPose = t;
      } else if (kind === 'event') {
        lines.push({ t, source: 'event', text: `${String(value.text)} (${String(value.credential)})` });
        if (value.action === 'stop') markers.push({ t, kind: 'stop', text: `STOP (${String(value.credential)})` });
      } else if (kind === 'agent') {
        const tool = value.tool as { name?: string } | undefined;
        const text = tool?.name
          ? `${String(value.persona)} tool ${tool.name}`
          : `${String(value.persona)} ${String(value.role)}: ${String(value.text)}`;
        lines.push({ t, source: 'agent', text });
      } else if (kind === 'health') {
        health.push({
          t,
          ok: value.ok === true,
          presence: String(value.presence),
          camera: String(value.camera),
          problems: (value.problems as string[]) ?? [],
        });
      } else if (kind === 'control') {
        const c = value as unknown as Control;
        if (c.action === 'stop') continue;
        if (c.action === 'joystick') {
          const burst = t - lastJoystick < INPUT_BURST_MS;
          lastJoystick = t;
          if (burst) continue;
        }
        const how = c.outcome === 'ok' ? '' : ` refused ${c.code ?? ''}`.trimEnd();
        markers.push({ t, kind: 'input', text: `${c.action} (${c.credential})${how}` });
      }
    }
    return { id: entry.id, name: entry.name, start, duration: end - start, poses, markers, lines, health, frames };
  } finally {
    await close();
  }
}

/** The JPEG shown at `t` ms into the recording: the last frame at or before it, else the first. */
export async function frameAt(path: string, start: number, t: number): Promise<Buffer | undefined> {
  const { reader, close } = await openMcapReader(path);
  try {
    const topics = [CHANNELS.camera.topic];
    const read = async (args: { endTime?: bigint; reverse?: boolean }) => {
      for await (const message of reader.readMessages({ topics, ...args })) return message;
      return undefined;
    };
    const message = (await read({ endTime: nsOf(start + t), reverse: true })) ?? (await read({}));
    if (!message) return undefined;
    return Buffer.from((jsonOf(message) as { data: string }).data, 'base64');
  } finally {
    await close();
  }
}
