import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses the server may send a push to. A partner names the URL, so by default only public
 * unicast addresses are allowed: loopback, private, link-local (the cloud metadata address),
 * unique-local, carrier-grade NAT, unspecified, multicast, broadcast, reserved and the IPv6 forms
 * that embed an IPv4 address (mapped, NAT64, 6to4, Teredo) are refused. `allowPrivate` (the
 * PUSH_ALLOW_PRIVATE_NETWORKS setting) lifts the rule for a firm's own network and for tests.
 */
export interface AddressPolicy {
  allowPrivate: boolean;
}

/** True when `address` (an IP literal, IPv6 with or without brackets) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return false;
  let parsed = ipaddr.parse(bare);
  // ::ffff:127.0.0.1 is 127.0.0.1: judge the IPv4 address it carries.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** The host of a parsed URL as an IP literal without brackets, or undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : undefined;
}

const REGISTRATION_LOOKUP_MS = 3000;

export class AddressRefused extends Error {
  constructor() {
    super('the endpoint\'s address is not a public address');
  }
}

/**
 * A `lookup` for http(s).request that resolves the name itself and refuses the connection when any
 * answer is not public: the address connected to is the one vetted, so a name that resolves to a
 * private address between the check and the connection (DNS rebinding) is caught too.
 */
export function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, options.all ? [] : '');
      if (!policy.allowPrivate && (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address)))) {
        return callback(Object.assign(new AddressRefused(), { code: 'EADDRREFUSED' }), options.all ? [] : '');
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * Whether a host may be pushed to, as far as can be told now: a literal must be public; a name must
 * not resolve to any address that is not. A name that does not resolve yet is let through (the
 * partner may register before its DNS is live): every delivery resolves it again and refuses then.
 */
export async function hostAllowed(hostname: string, policy: AddressPolicy): Promise<boolean> {
  if (policy.allowPrivate) return true;
  const literal = literalAddress(hostname);
  if (literal) return isPublicAddress(literal);
  const addresses = await new Promise<LookupAddress[]>((resolve) => {
    // A resolver that hangs must not hold the registration request: unanswered is unresolved.
    const timer = setTimeout(() => resolve([]), REGISTRATION_LOOKUP_MS);
    dnsLookup(hostname, { all: true }, (error, found) => {
      clearTimeout(timer);
      resolve(error ? [] : found);
    });
  });
  return addresses.every((a) => isPublicAddress(a.address));
}
