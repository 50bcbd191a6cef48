import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardedLookup, hostAllowed, isPublicAddress } from './address-guard.js';

const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = (a: fc.Arbitrary<number>, b: fc.Arbitrary<number> = octet) => fc.tuple(a, b, octet, octet).map((parts) => parts.join('.'));
const hex = (n: number) => n.toString(16);

describe('isPublicAddress', () => {
  it('refuses every address of the loopback, private, link-local and CGNAT ranges, bare and IPv4-mapped', () => {
    const internal = fc.oneof(
      ipv4(fc.constant(127)),
      ipv4(fc.constant(10)),
      ipv4(fc.constant(172), fc.integer({ min: 16, max: 31 })),
      ipv4(fc.constant(192), fc.constant(168)),
      ipv4(fc.constant(169), fc.constant(254)),
      ipv4(fc.constant(100), fc.integer({ min: 64, max: 127 })),
      ipv4(fc.constant(0)),
      ipv4(fc.integer({ min: 224, max: 255 })),
    );
    fc.assert(
      fc.property(internal, (address) => {
        const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
        expect(isPublicAddress(address), address).toBe(false);
        expect(isPublicAddress(`::ffff:${address}`), address).toBe(false);
        expect(isPublicAddress(`[::ffff:${hex(a * 256 + b)}:${hex(c * 256 + d)}]`), address).toBe(false);
      }),
    );
  });

  it('refuses IPv6 loopback, unspecified, link-local, unique-local and multicast; accepts global unicast', () => {
    for (const address of ['::1', '::', 'fe80::1', 'febf::abcd', 'fc00::1', 'fdff:ffff::1', 'ff02::1', '[::1]', 'not an address', '']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700::1111', '[2001:4860:4860::8888]', '::ffff:8.8.8.8']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});

describe('hostAllowed and guardedLookup', () => {
  it('refuse a name that resolves to loopback unless private networks are allowed', async () => {
    expect(await hostAllowed('localhost', { allowPrivate: false })).toBe(false);
    expect(await hostAllowed('localhost', { allowPrivate: true })).toBe(true);
    expect(await hostAllowed('127.0.0.1', { allowPrivate: false })).toBe(false);
    // Not resolvable (yet): let through, every delivery resolves it again.
    expect(await hostAllowed('partner.example', { allowPrivate: false })).toBe(true);
    const refused = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup({ allowPrivate: false })('localhost', { all: true }, (error) => resolve(error)));
    expect(refused?.code).toBe('EADDRREFUSED');
    const allowed = await new Promise<unknown>((resolve) => guardedLookup({ allowPrivate: true })('localhost', { all: true }, (error, addresses) => resolve(error ?? addresses)));
    expect(allowed).toEqual(expect.arrayContaining([expect.objectContaining({ address: expect.any(String) })]));
  });
});
