/**
 * The messenger end to end against the fake bot API, the simulator and the fake model:
 * pairing mode answers only with the chat id; an allowed chat gets answers (text, and a photo
 * when the model took a snapshot or the user sent /photo); other chats are ignored; restarting
 * does not handle a message twice; the latched stop pauses it.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../../motion/testing/rig.ts';
import { pairingReply, PAUSED_REPLY } from './messenger-replies.ts';
import { PHOTO, startMessengerRig, type MessengerRig } from './testing/messenger-rig.ts';

let m: MessengerRig;
beforeEach(async () => {
  m = await startMessengerRig();
  await until(() => m.messenger.status().state === 'pairing');
});
afterEach(() => m.close());

const ADA = { id: 4242, first_name: 'Ada' };
const BOB = { id: -100555, type: 'group', title: 'Lab group' };
const sentTo = (chatId: number) => m.bot.sent.filter((s) => s.chatId === chatId);
const messengerRows = () => m.rig.agent.agentLog.page({ n: 200 }).filter((r) => r.persona === 'messenger');

describe('messenger persona', () => {
  it('in pairing mode answers any chat only with its chat id, runs no turn, and lists the chat', async () => {
    m.bot.userSends(ADA, 'hello robot, look left');
    m.bot.userSends(BOB, '/start');
    await until(() => m.bot.sent.length === 2);
    expect(sentTo(ADA.id)).toEqual([{ method: 'sendMessage', chatId: 4242, text: pairingReply(4242) }]);
    expect(sentTo(BOB.id)[0]?.text).toContain('Your chat id is -100555.');
    expect(m.rig.fake.requests).toEqual([]);
    expect(messengerRows().map((r) => r.role)).toEqual(['assistant']);
    expect(m.messenger.status()).toMatchObject({
      state: 'pairing',
      pairing: true,
      bot: { username: 'cockpit_test_bot', name: 'Cockpit Test Bot' },
      seenChats: [
        { id: -100555, title: 'Lab group', type: 'group', lastText: '/start' },
        { id: 4242, title: 'Ada', type: 'private', lastText: 'hello robot, look left' },
      ],
    });
    expect(m.rig.robot.services.get('messenger')).toEqual({
      state: 'running',
      detail: expect.stringMatching(/pairing mode/),
    });
  });

  it('answers an allowed chat through a messenger turn, sends photos, and ignores other chats', async () => {
    await m.settings.allowChat(ADA.id);
    m.messenger.apply();
    expect(m.messenger.status()).toMatchObject({ state: 'listening', pairing: false });
    m.bot.userSends(BOB, 'look right');
    m.bot.userSends(ADA, 'look left');
    await until(() => sentTo(ADA.id).length === 1);
    expect(sentTo(ADA.id)[0]).toEqual({ method: 'sendMessage', chatId: 4242, text: 'Looking.\nDone.' });
    const rows = messengerRows().map((r) => [r.role, r.tool?.name ?? r.text]);
    expect(rows).toContainEqual(['user', 'look left']);
    expect(rows).toContainEqual(['tool', 'look']);
    expect(m.rig.fake.requests[0]?.toolNames).not.toContain('use_device');

    m.bot.userSends(ADA, 'what do you see?');
    await until(() => sentTo(ADA.id).length === 2);
    expect(sentTo(ADA.id)[1]).toEqual({ method: 'sendPhoto', chatId: 4242, photo: PHOTO, caption: 'Done.' });
    m.bot.userSends(ADA, '/photo');
    await until(() => sentTo(ADA.id).length === 3);
    expect(sentTo(ADA.id)[2]).toEqual({ method: 'sendPhoto', chatId: 4242, photo: PHOTO });
    expect(sentTo(BOB.id)).toEqual([]);
    expect(m.messenger.status().seenChats.map((c) => c.id)).toEqual([4242, -100555]);
    expect(m.messenger.status().handled).toBe(3);
  });

  it('commits the offset, so a restart never handles a message again, even when the API delivers it again', async () => {
    await m.settings.allowChat(ADA.id);
    m.messenger.apply();
    const first = m.bot.userSends(ADA, 'say hi');
    await until(() => sentTo(ADA.id).length === 1);
    const state = join(m.dataDir, 'messenger-state.json');
    expect(JSON.parse(await readFile(state, 'utf8'))).toMatchObject({ offset: first.update_id + 1 });
    expect((await stat(state)).mode & 0o777).toBe(0o600);

    await m.restart();
    m.bot.redeliver();
    const second = m.bot.userSends(ADA, 'look up');
    await until(() => sentTo(ADA.id).length === 2);
    // The barrier: updates are handled one by one, then confirmed by the next poll's offset. A
    // poll past "look up" means the whole batch, the redelivered message first, is behind us.
    await until(() => m.bot.polls.some((p) => p.offset === second.update_id + 1));
    expect(sentTo(ADA.id).map((s) => s.text)).toEqual(['Done.', 'Looking.\nDone.']);
    expect(
      messengerRows()
        .filter((r) => r.role === 'user')
        .map((r) => r.text),
    ).toEqual(['say hi', 'look up']);
    expect(m.bot.polls.find((p) => p.offset === second.update_id)).toBeDefined();
  });

  it('is paused by the latched stop: the running turn is cut and new messages get the paused answer', async () => {
    await m.settings.allowChat(ADA.id);
    m.messenger.apply();
    m.rig.control.autonomy.register('messenger', m.messenger);
    m.rig.fake.setScript(() => ({ kind: 'hang' }));
    m.bot.userSends(ADA, 'tell me everything');
    await until(() => m.rig.fake.hanging() === 1);
    await m.rig.control.stop('token');
    expect(m.messenger.status().state).toBe('paused');
    m.bot.userSends(ADA, 'look left');
    await until(() => sentTo(ADA.id).length === 1);
    expect(sentTo(ADA.id)[0]?.text).toBe(PAUSED_REPLY);
    expect(m.rig.robot.services.get('messenger')?.state).toBe('paused');
    m.rig.control.resume('token');
    expect(m.messenger.status().state).toBe('listening');
  });
});
