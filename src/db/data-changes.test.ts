import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACKNOWLEDGEMENT_WAIT_MS, Acknowledgements, acknowledgement } from './acknowledgements.js';
import { PostgresDataChanges } from './data-changes.js';
import type { Db } from './database.js';
import type { ChannelHandlers, ChannelListener } from './listen.js';

/** A PostgreSQL process's data changes over a channel played by the test: what it sends, and who listens. */
function onFakeChannel(listening: number) {
  const sent: string[] = [];
  const counted = { listeners: listening, times: 0 };
  /** `refuse`: how many sends to fail next, as on a connection that is going down. */
  const fake = { listener: undefined as unknown as ChannelListener, refuse: 0 };
  let handlers: ChannelHandlers | undefined;
  const db = { schema: 'book', writeStamp: () => '0' } as unknown as Db;
  const changes = new PostgresDataChanges(db, (_channel, given) => {
    handlers = given;
    const listener: ChannelListener = {
      send: async (payload) => {
        if (fake.refuse > 0) {
          fake.refuse--;
          return false;
        }
        sent.push(payload);
        return true;
      },
      listeners: async () => {
        counted.times++;
        return counted.listeners;
      },
      close: async () => undefined,
    };
    fake.listener = listener;
    return listener;
  });
  const nonces = (kind: string) => sent.filter((p) => p.startsWith(`{"${kind}"`)).map((p) => (JSON.parse(p) as Record<string, string>)[kind]!);
  const channel = {
    changes,
    sent,
    counted,
    fake,
    get listener() {
      return fake.listener;
    },
    hear: (payload: string) => handlers!.message(payload),
    /** Every listener answers the `index`-th message of a kind this process sent. */
    answerAll: async (kind: 'hello' | 'barrier', index: number) => {
      await vi.waitFor(() => expect(nonces(kind).length).toBeGreaterThan(index), { timeout: 3 * ACKNOWLEDGEMENT_WAIT_MS });
      for (let i = 0; i < counted.listeners; i++) channel.hear(acknowledgement(nonces(kind)[index]!));
    },
    /** Listening, and known to every listener: its stamp is defined from then on. */
    async start() {
      changes.start();
      await vi.waitFor(() => expect(handlers).toBeDefined());
      handlers!.up();
      await channel.answerAll('hello', 0);
      await vi.waitFor(() => expect(changes.stamp()).toBeDefined());
    },
  };
  return channel;
}

const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
};

describe('the barrier after a write (PostgreSQL)', () => {
  it('answers once every listener, this process included, has answered the barrier sent after the write', async () => {
    const channel = onFakeChannel(3);
    await channel.start();
    const heard = channel.changes.heardEverywhere();
    await vi.waitFor(() => expect(channel.sent).toHaveLength(2));
    const nonce = (JSON.parse(channel.sent[1]!) as { barrier: string }).barrier;
    channel.hear(acknowledgement(nonce));
    channel.hear(acknowledgement(nonce));
    expect(await settled(heard)).toBe(false);
    channel.hear(acknowledgement(nonce));
    expect(await settled(heard)).toBe(true);
  });

  it('answers a barrier or a hello only after counting every notification that came before it', async () => {
    const channel = onFakeChannel(2);
    await channel.start();
    const before = channel.changes.stamp();
    channel.hear('trade_block_details');
    channel.hear(JSON.stringify({ barrier: 'theirs' }));
    expect(channel.changes.stamp()).not.toBe(before);
    expect(channel.sent.at(-1)).toBe(acknowledgement('theirs'));
    // Barriers, hellos and answers are not changes: they leave the stamp where it is.
    const after = channel.changes.stamp();
    channel.hear(acknowledgement('theirs'));
    channel.hear(JSON.stringify({ hello: 'newcomer' }));
    expect(channel.sent.at(-1)).toBe(acknowledgement('newcomer'));
    expect(channel.changes.stamp()).toBe(after);
  });

  it('runs one barrier at a time, the next for every write that came meanwhile', async () => {
    const channel = onFakeChannel(2);
    await channel.start();
    const first = channel.changes.heardEverywhere();
    await vi.waitFor(() => expect(channel.sent).toHaveLength(2));
    const second = channel.changes.heardEverywhere();
    const third = channel.changes.heardEverywhere();
    await channel.answerAll('barrier', 0);
    expect(await settled(first)).toBe(true);
    expect(await settled(second)).toBe(false);
    await channel.answerAll('barrier', 1);
    expect(await settled(second)).toBe(true);
    expect(await settled(third)).toBe(true);
    expect(channel.sent).toHaveLength(3);
  });

  it('caches nothing until every listener has answered its hello', async () => {
    const channel = onFakeChannel(2);
    const started = channel.start();
    await vi.waitFor(() => expect(channel.sent).toHaveLength(1));
    expect(channel.changes.stamp()).toBeUndefined();
    await started;
    expect(channel.changes.stamp()).toBeDefined();
  });

  it('says hello again when it could not be sent, and caches nothing until it was answered', async () => {
    const channel = onFakeChannel(2);
    channel.fake.refuse = 1;
    const started = channel.start();
    await new Promise((resolve) => setTimeout(resolve, ACKNOWLEDGEMENT_WAIT_MS / 2));
    expect(channel.changes.stamp()).toBeUndefined();
    await started;
    expect(channel.changes.stamp()).toBeDefined();
  });

  it('counts the listeners once, and again after a hello, so that a newcomer is in the next barrier', async () => {
    const channel = onFakeChannel(1);
    await channel.start();
    const countedAtStart = channel.counted.times;
    // Alone: no barrier, and no count per write.
    await channel.changes.heardEverywhere();
    await channel.changes.heardEverywhere();
    expect(channel.counted.times).toBe(countedAtStart + 1);
    expect(channel.sent.filter((p) => p.startsWith('{"barrier"'))).toEqual([]);
    // Another process joins and says hello: the next write waits for its answer too.
    channel.counted.listeners = 2;
    channel.hear(JSON.stringify({ hello: 'newcomer' }));
    const heard = channel.changes.heardEverywhere();
    await channel.answerAll('barrier', 0);
    expect(await settled(heard)).toBe(true);
    expect(channel.counted.times).toBe(countedAtStart + 2);
  });

  it('does not hold a write longer than two waits when the listening connection hangs', async () => {
    const channel = onFakeChannel(2);
    await channel.start();
    vi.useFakeTimers();
    try {
      channel.counted.listeners = 2;
      const hung = new Promise<number>(() => undefined);
      vi.spyOn(channel.listener, 'listeners').mockReturnValue(hung);
      channel.hear(JSON.stringify({ hello: 'newcomer' }));
      const heard = channel.changes.heardEverywhere();
      await vi.advanceTimersByTimeAsync(2 * ACKNOWLEDGEMENT_WAIT_MS - 1);
      expect(await settled(heard)).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await settled(heard)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('alone, waits for its own answer before telling of another process\'s writes', async () => {
    const channel = onFakeChannel(1);
    await channel.start();
    await channel.changes.heardEverywhere();
    expect(channel.sent.filter((p) => p.startsWith('{"barrier"'))).toEqual([]);
    const heard = channel.changes.heardEverywhere(true);
    await vi.waitFor(() => expect(channel.sent.filter((p) => p.startsWith('{"barrier"'))).toHaveLength(1));
    expect(await settled(heard)).toBe(false);
    await channel.answerAll('barrier', 0);
    expect(await settled(heard)).toBe(true);
  });

  it('sends nothing when it is not listening', async () => {
    const deaf = onFakeChannel(3);
    await deaf.changes.heardEverywhere();
    expect(deaf.sent).toEqual([]);
  });
});

describe('Acknowledgements', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('counts answers that came before the wait began, and ignores answers to other processes', async () => {
    const acks = new Acknowledgements();
    const nonce = acks.announce();
    expect(acks.heard(acknowledgement(nonce))).toBe(true);
    expect(acks.heard(acknowledgement('someone else'))).toBe(true);
    expect(acks.heard('accounts')).toBe(false);
    const waited = acks.wait(nonce, 2);
    expect(await settled(waited)).toBe(false);
    acks.heard(acknowledgement(nonce));
    expect(await settled(waited)).toBe(true);
  });

  it('does not wait longer than its wait for a listener that never answers', async () => {
    const acks = new Acknowledgements();
    const nonce = acks.announce();
    const waited = acks.wait(nonce, 2);
    acks.heard(acknowledgement(nonce));
    await vi.advanceTimersByTimeAsync(ACKNOWLEDGEMENT_WAIT_MS - 1);
    expect(await settled(waited)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waited)).toBe(true);
  });
});
