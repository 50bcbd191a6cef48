import { describe, expect, it } from 'vitest';
import { type CachedToken, decodeSubject, encodeSubject, TokenCache } from './token-cache.js';

const entry = (tokenId: number, userId: number, chainId: string | null, clientId: number | null, expiresAt = 10_000): CachedToken => ({
  principal: { userId, firmId: 1, userName: `u${userId}`, kind: 'user', clientId, privileges: new Set(['ViewAccounts']) },
  tokenId,
  chainId,
  expiresAt,
});

describe('TokenCache', () => {
  it('forgets exactly what a revocation names: a token, a chain (derived tokens included), a user, a partner app, everything', () => {
    const cache = new TokenCache({ trusted: true });
    const fill = () => {
      cache.store('p1', entry(1, 10, 'chain-a', 5), cache.ticket());
      cache.store('r2', entry(2, 10, 'chain-a', 5), cache.ticket()); // a rebalancer token carrying its session's chain
      cache.store('p3', entry(3, 11, 'chain-b', null), cache.ticket());
      cache.store('p4', entry(4, 12, null, 6), cache.ticket());
    };
    const held = () => ['p1', 'r2', 'p3', 'p4'].filter((key) => cache.get(key, 0));
    fill();
    cache.forget({ token: 3 });
    expect(held()).toEqual(['p1', 'r2', 'p4']);
    cache.forget({ chain: 'chain-a' });
    expect(held()).toEqual(['p4']);
    fill();
    cache.forget({ user: 10 });
    expect(held()).toEqual(['p3', 'p4']);
    cache.forget({ app: 6 });
    expect(held()).toEqual(['p3']);
    cache.forget({ all: true });
    expect(held()).toEqual([]);
  });

  it('does not keep an answer looked up before a revocation came', () => {
    const cache = new TokenCache({ trusted: true });
    const ticket = cache.ticket();
    cache.forget({ user: 99 });
    cache.store('p1', entry(1, 10, null, null), ticket);
    expect(cache.get('p1', 0)).toBeUndefined();
  });

  it('answers nothing while it cannot hear revocations, and forgets what it held', () => {
    const cache = new TokenCache({ trusted: false });
    cache.store('p1', entry(1, 10, null, null), cache.ticket());
    expect(cache.get('p1', 0)).toBeUndefined();
    cache.trust();
    cache.store('p1', entry(1, 10, null, null), cache.ticket());
    expect(cache.get('p1', 0)?.tokenId).toBe(1);
    cache.distrust();
    expect(cache.answering).toBe(false);
    cache.trust();
    expect(cache.get('p1', 0)).toBeUndefined();
  });

  it('refuses an expired token and forgets everything when another process wrote the database', () => {
    let foreign = false;
    const cache = new TokenCache({ trusted: true, foreignWrites: () => foreign });
    cache.store('p1', entry(1, 10, null, null, 1_000), cache.ticket());
    cache.store('p2', entry(2, 11, null, null, 5_000), cache.ticket());
    expect(cache.get('p1', 1_000)).toBeUndefined();
    expect(cache.get('p2', 1_000)?.tokenId).toBe(2);
    foreign = true;
    expect(cache.get('p2', 1_000)).toBeUndefined();
    foreign = false;
    expect(cache.get('p2', 1_000)).toBeUndefined();
  });

  it('reads back what it sends, and takes anything unreadable as "forget everything"', () => {
    for (const subject of [{ token: 3 }, { chain: 'c' }, { user: 4 }, { app: 5 }, { all: true as const }]) {
      expect(decodeSubject(encodeSubject(subject, 'n'))).toEqual({ subject, nonce: 'n' });
    }
    expect(decodeSubject('not json')).toEqual({ subject: { all: true } });
    expect(decodeSubject('{"user":"4"}')).toEqual({ subject: { all: true } });
  });
});
