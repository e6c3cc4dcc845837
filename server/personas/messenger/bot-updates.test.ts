import { describe, expect, it } from 'vitest';
import { readUpdates } from './bot-updates.ts';

const chat = { id: -100123, type: 'group', title: 'Workshop' };

describe('getUpdates read at the edge', () => {
  it('drops an update whose id is not a count: it would become the stored offset', () => {
    const ids = [7, -1, 1.5, 1e308, 2 ** 53 + 1, '8', null].map((update_id) => ({ update_id }));
    expect(readUpdates([...ids, null, 5, 'x'])).toEqual([{ update_id: 7 }]);
  });

  it('keeps the update but not a message whose chat id, chat type or text is of another type', () => {
    const odd = [
      { chat: { ...chat, id: 'x' }, text: 'a' },
      { chat: { ...chat, id: 0 }, text: 'a' },
      { chat: { ...chat, type: 5 }, text: 'a' },
      { chat, text: 42 },
      { chat, caption: ['a'] },
      { text: 'no chat' },
      'not a message',
    ];
    expect(readUpdates(odd.map((message, i) => ({ update_id: i + 1, message })))).toEqual(
      odd.map((_, i) => ({ update_id: i + 1 })),
    );
  });

  it('reads a message with what it can use: odd optional members are left out', () => {
    const [update] = readUpdates([
      {
        update_id: 3,
        message: {
          message_id: 9,
          date: 'yesterday',
          chat: { ...chat, username: 12 },
          from: { id: 5, is_bot: 'no', first_name: 'Ada' },
          text: 'hello',
        },
      },
    ]);
    expect(update).toEqual({ update_id: 3, message: { message_id: 9, date: 0, chat, text: 'hello' } });
  });
});
