import { describe, expect, it } from 'vitest';
import { createPlatformNotices } from './platform-notices.ts';

const note = (changes: Partial<{ title: string; body: string; tag: string; url: string }> = {}) => ({
  title: 'Task done',
  body: 'The kitchen robot finished its round.',
  tag: 'task-7',
  url: 'https://platform.example/tasks/7',
  ...changes,
});

describe('createPlatformNotices', () => {
  it('turns a notify envelope into a notice whose click opens its web address', () => {
    expect(createPlatformNotices().accept(note(), 0)).toEqual({
      notice: {
        tag: 'platform:task-7',
        title: 'Task done',
        body: 'The kitchen robot finished its round.',
        urgent: false,
      },
      openUrl: 'https://platform.example/tasks/7',
    });
  });

  it('shows the same notice once within the repeat window, again after it', () => {
    const notices = createPlatformNotices({ repeatMs: 10_000 });
    expect(notices.accept(note(), 0)).toBeDefined();
    expect(notices.accept(note(), 9_999)).toBeUndefined();
    expect(notices.accept(note({ body: 'Another round.' }), 5_000)).toBeDefined();
    expect(notices.accept(note(), 10_000)).toBeDefined();
  });

  it('never hands a non-web address to the system, and titles an untitled notice', () => {
    const view = createPlatformNotices().accept(note({ title: '  ', url: 'file:///etc/passwd', tag: '' }), 0);
    expect(view?.openUrl).toBeUndefined();
    expect(view?.notice.title).toBe('Robot Cockpit');
    expect(view?.notice.tag.startsWith('platform:')).toBe(true);
  });
});
