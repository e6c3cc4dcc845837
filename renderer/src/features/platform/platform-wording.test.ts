import { describe, expect, it } from 'vitest';
import type { FirmwareStatus } from '../../../../server/contract/index.ts';
import {
  INSTALL_HELP,
  NO_INSTALLER,
  firmwareLine,
  firmwareMessage,
  installSwitch,
  ownerSessionLabel,
  ownerSessionText,
} from './platform-wording.ts';

const firmware: FirmwareStatus = {
  state: 'idle',
  channel: 'stable',
  currentVersion: '1.2.3',
  available: '1.2.4',
  staged: null,
  lastCheckedAt: null,
  message: null,
  installAllowed: false,
  installer: 'hook /usr/local/bin/install-bundle',
};

describe('firmwareLine', () => {
  it('says the state in words, the running version and what is new, once', () => {
    expect(firmwareLine(firmware)).toBe('idle · running 1.2.3 · 1.2.4 available');
    expect(firmwareLine({ ...firmware, state: 'staged', staged: '1.2.4' })).toBe(
      'staged · running 1.2.3 · 1.2.4 staged',
    );
    expect(firmwareLine({ ...firmware, state: 'up_to_date', available: '1.2.3' })).toBe('up to date · running 1.2.3');
    expect(firmwareLine({ ...firmware, state: 'applying', currentVersion: null, available: null })).toBe('installing');
    expect(firmwareLine({ ...firmware, state: 'unoffered', available: null })).toBe(
      'not offered by this platform · running 1.2.3',
    );
  });
});

describe('firmwareMessage', () => {
  it('turns the client’s message into a sentence', () => {
    expect(firmwareMessage({ ...firmware, message: 'staged; waiting for the robot to be idle' })).toBe(
      'Staged; waiting for the robot to be idle.',
    );
    expect(firmwareMessage({ ...firmware, message: 'installed 0.2.0; restart the console to run it' })).toBe(
      'Installed 0.2.0; restart the console to run it.',
    );
    expect(firmwareMessage({ ...firmware, message: 'Done.' })).toBe('Done.');
    expect(firmwareMessage({ ...firmware, message: ' ' })).toBeNull();
    expect(firmwareMessage(firmware)).toBeNull();
  });
});

describe('installSwitch', () => {
  it('explains what allowing installs does where the console has an installer', () => {
    expect(installSwitch(firmware)).toEqual({ disabled: false, help: INSTALL_HELP });
    expect(installSwitch({ ...firmware, installAllowed: true })).toEqual({ disabled: false, help: INSTALL_HELP });
    expect(INSTALL_HELP).toMatch(/idle/);
  });

  it('locks the switch off without an installer and says what to set on the robot', () => {
    expect(installSwitch({ ...firmware, installer: null })).toEqual({ disabled: true, help: NO_INSTALLER });
    expect(NO_INSTALLER).toMatch(/ROBOT_FIRMWARE_HOOK/);
  });

  it('still lets consent given earlier be taken back when the installer is gone', () => {
    const gone = installSwitch({ ...firmware, installer: null, installAllowed: true });
    expect(gone.disabled).toBe(false);
    expect(gone.help).toMatch(/stay staged/);
  });
});

describe('owner session wording', () => {
  it('says where the token comes from and what it allows', () => {
    expect(ownerSessionLabel('stored')).toBe('Stored');
    expect(ownerSessionLabel('env')).toBe('From the robot');
    expect(ownerSessionLabel(null)).toBe('None');
    expect(ownerSessionText('stored')).toMatch(/list and message your other devices/);
    expect(ownerSessionText('env')).toMatch(/ROBOT_PLATFORM_SESSION_TOKEN.*change or remove it there/);
    expect(ownerSessionText(null)).toMatch(/cannot reach/);
  });
});
