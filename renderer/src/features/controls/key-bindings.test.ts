import { describe, expect, it } from 'vitest';
import { isTypingTarget, keyDrive, keyRates, type KeyLike } from './key-bindings.ts';

const press = (key: string, code: string, mods: Partial<KeyLike> = {}): KeyLike => ({
  key,
  code,
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});

describe('keyDrive', () => {
  it('turns and tilts with arrows and WASD', () => {
    expect(keyDrive(press('ArrowLeft', 'ArrowLeft'))).toEqual({ axis: 'yaw', sign: 1 });
    expect(keyDrive(press('a', 'KeyA'))).toEqual({ axis: 'yaw', sign: 1 });
    expect(keyDrive(press('d', 'KeyD'))).toEqual({ axis: 'yaw', sign: -1 });
    expect(keyDrive(press('ArrowUp', 'ArrowUp'))).toEqual({ axis: 'pitch', sign: -1 });
    expect(keyDrive(press('s', 'KeyS'))).toEqual({ axis: 'pitch', sign: 1 });
  });

  it('rolls with Shift and raises with Alt, whatever character the layout makes', () => {
    expect(keyDrive(press('ArrowLeft', 'ArrowLeft', { shiftKey: true }))).toEqual({ axis: 'roll', sign: -1 });
    expect(keyDrive(press('D', 'KeyD', { shiftKey: true }))).toEqual({ axis: 'roll', sign: 1 });
    expect(keyDrive(press('∑', 'KeyW', { altKey: true }))).toEqual({ axis: 'z', sign: 1 });
    expect(keyDrive(press('ArrowDown', 'ArrowDown', { altKey: true }))).toEqual({ axis: 'z', sign: -1 });
  });

  it('leaves shortcuts and other keys alone', () => {
    expect(keyDrive(press('a', 'KeyA', { ctrlKey: true }))).toBeNull();
    expect(keyDrive(press('ArrowLeft', 'ArrowLeft', { metaKey: true }))).toBeNull();
    expect(keyDrive(press('q', 'KeyQ'))).toBeNull();
    expect(keyDrive(press('Escape', 'Escape'))).toBeNull();
  });
});

describe('keyRates', () => {
  it('sums the held keys; opposites cancel', () => {
    expect(keyRates([{ axis: 'yaw', sign: 1 }, { axis: 'pitch', sign: -1 }])).toEqual({ yaw: 1, pitch: -1, roll: 0, z: 0 });
    expect(keyRates([{ axis: 'yaw', sign: 1 }, { axis: 'yaw', sign: -1 }]).yaw).toBe(0);
    expect(keyRates([{ axis: 'yaw', sign: 1 }, { axis: 'yaw', sign: 1 }]).yaw).toBe(1);
  });
});

describe('isTypingTarget', () => {
  const element = (tagName: string, attributes: Record<string, string> = {}, isContentEditable = false) => ({
    tagName,
    isContentEditable,
    getAttribute: (name: string) => attributes[name] ?? null,
  });

  it('is true for fields, sliders and editable text', () => {
    expect(isTypingTarget(element('input'))).toBe(true);
    expect(isTypingTarget(element('INPUT', { type: 'range' }))).toBe(true);
    expect(isTypingTarget(element('INPUT', { type: 'radio' }))).toBe(true);
    expect(isTypingTarget(element('TEXTAREA'))).toBe(true);
    expect(isTypingTarget(element('SELECT'))).toBe(true);
    expect(isTypingTarget(element('div', {}, true))).toBe(true);
    expect(isTypingTarget(element('div', { role: 'slider' }))).toBe(true);
  });

  it('is false for buttons, checkboxes, the page and nothing', () => {
    expect(isTypingTarget(element('BUTTON'))).toBe(false);
    expect(isTypingTarget(element('INPUT', { type: 'checkbox' }))).toBe(false);
    expect(isTypingTarget(element('BODY'))).toBe(false);
    expect(isTypingTarget(element('div', { role: 'application' }))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
