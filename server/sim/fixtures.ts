/**
 * Fixed daemon answers recorded from the real daemon (docs/daemon.md, "Differential test and recorded fixtures"), and the daemon
 * status in the real key order. The simulator presents itself as a mockup-sim daemon with
 * media on a Lite-like robot: it plays sounds, hears (DoA) and sees faces, so `no_media` is
 * false and the camera specs are the Lite ones.
 */
import type { SimContext } from './context.ts';

export const DAEMON_VERSION = '1.10.0.dev0';

export const CAMERA_SPECS_LITE = Object.freeze({
  name: 'lite',
  available_resolutions: [
    { name: 'R1920x1080at60fps', width: 1920, height: 1080, fps: 60, crop_factor: 1.115 },
    { name: 'R3840x2592at30fps', width: 3840, height: 2592, fps: 30, crop_factor: 1.0 },
    { name: 'R3840x2160at30fps', width: 3840, height: 2160, fps: 30, crop_factor: 1.109 },
    { name: 'R3264x2448at30fps', width: 3264, height: 2448, fps: 30, crop_factor: 1.115 },
  ],
  default_resolution: { name: 'R1920x1080at60fps', width: 1920, height: 1080, fps: 60, crop_factor: 1.115 },
  K: [
    [2001.8076426486707, 0.0, 1905.876059826701],
    [0.0, 2003.0778885944105, 1328.3239717935594],
    [0.0, 0.0, 1.0],
  ],
  D: [
    -1.4652320301298614, 0.6542714131667414, 0.012147809271745049, -0.002677286460143648, 0.3035939941825349,
    -1.4300809080461876, 0.570024082887235, 0.3567299243352951, 0.003057363348400015, 0.0003357614008682464,
    -0.009897126394310923, -0.002050919484589521,
  ],
});

export const KINEMATICS_INFO = Object.freeze({ info: { engine: 'AnalyticalKinematics', 'collision check': false } });

/** Key order is the real one (pydantic field order). */
export function daemonStatus(ctx: SimContext): Record<string, unknown> {
  const { lifecycle, world } = ctx;
  const backendUp = lifecycle.state !== 'stopped' && lifecycle.state !== 'not_initialized';
  return {
    type: 'daemon_status',
    robot_name: ctx.robotName,
    state: lifecycle.state,
    wireless_version: ctx.wireless,
    desktop_app_daemon: false,
    simulation_enabled: false,
    mockup_sim_enabled: true,
    no_media: false,
    media_released: ctx.media.released,
    camera_specs_name: 'lite',
    backend_status: backendUp ? { motor_control_mode: world.mode, error: ctx.faults.motorError } : null,
    error: null,
    wlan_ip: null,
    version: DAEMON_VERSION,
    hardware_id: null,
    face_target: { ...ctx.lastFace },
  };
}

export function platformName(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return 'Darwin';
  if (platform === 'win32') return 'Windows';
  return 'Linux';
}

/** The card the daemon looks for first (docs/daemon.md, "Volume"). */
export const SOUND_DEVICE = 'Reachy Mini Audio';
