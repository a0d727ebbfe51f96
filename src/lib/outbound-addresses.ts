// Which addresses the platform's outgoing calls (image downloads, webhooks) may not reach
// unless ALLOW_PRIVATE_ADDRESSES allows them (docs/conventions.md): loopback, private,
// link-local and cloud metadata addresses, and the special ranges no public server lives
// in. Checked on the address actually connected to: a name is resolved once, by the
// lookup the connection uses, so a public name that resolves to a private address is
// refused too, and DNS cannot answer differently between the check and the use.
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

// Range classification is ipaddr.js's (its `range()` names, kept up to date with the IANA
// special-purpose registries); only the reasons we give, and the cloud metadata addresses
// (some of which are ordinary public addresses), are ours.
const METADATA = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', '168.63.129.16', 'fd00:ec2::254']);

const IPV4_KINDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private address',
  carrierGradeNat: 'a private address',
  linkLocal: 'a link-local address',
};

const IPV6_KINDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  uniqueLocal: 'a private address',
  deprecatedSiteLocal: 'a site-local address',
  linkLocal: 'a link-local address',
  ipv4Mapped: 'an IPv4-mapped address',
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
};

/** Why an IPv4 address is refused, or undefined: anything but ordinary public unicast is. */
function ipv4Refusal(address: ipaddr.IPv4): string | undefined {
  if (METADATA.has(address.toString())) return 'a cloud metadata address';
  const range = address.range();
  if (range === 'unicast') return undefined;
  return IPV4_KINDS[range] ?? 'a reserved address';
}

/**
 * The IPv4 address an IPv6 address carries, where its form says it carries one, and the
 * form: mapped (::ffff:a.b.c.d), translated (::ffff:0:a.b.c.d), IPv4-compatible
 * (::a.b.c.d), NAT64 (64:ff9b::/96 and 64:ff9b:1::/48: the last 32 bits), 6to4
 * (2002:AABB:CCDD::) and Teredo (2001:0::, the client's address inverted in the last 32
 * bits) are refused whatever they carry: a translator or relay on the path would connect
 * to that IPv4 address. An ISATAP interface identifier (::5efe:a.b.c.d or
 * ::200:5efe:a.b.c.d) under a global prefix is an ordinary address of its own and is
 * refused only when the IPv4 address it carries is.
 */
function embeddedIPv4(address: ipaddr.IPv6): { ipv4: ipaddr.IPv4; form: string; always: boolean } | undefined {
  const parts = address.parts;
  const last32 = (xor = 0) =>
    new ipaddr.IPv4([(parts[6]! >> 8) ^ xor, (parts[6]! & 0xff) ^ xor, (parts[7]! >> 8) ^ xor, (parts[7]! & 0xff) ^ xor]);
  const range = address.range();
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return { ipv4: last32(), form: IPV6_KINDS[range]!, always: true };
    case '6to4':
      return { ipv4: new ipaddr.IPv4([parts[1]! >> 8, parts[1]! & 0xff, parts[2]! >> 8, parts[2]! & 0xff]), form: IPV6_KINDS[range]!, always: true };
    case 'teredo':
      return { ipv4: last32(0xff), form: IPV6_KINDS[range]!, always: true };
  }
  // IPv4-compatible: the first 96 bits zero (:: and ::1 are ranges of their own).
  if (parts.slice(0, 6).every((p) => p === 0) && (parts[6] !== 0 || parts[7]! > 1)) return { ipv4: last32(), form: 'an IPv4-compatible address', always: true };
  if ((parts[4] === 0 || parts[4] === 0x200) && parts[5] === 0x5efe) return { ipv4: last32(), form: 'an ISATAP address', always: false };
  return undefined;
}

function ipv6Refusal(address: ipaddr.IPv6): string | undefined {
  if (METADATA.has(address.toString())) return 'a cloud metadata address';
  const embedded = embeddedIPv4(address);
  if (embedded) {
    const inner = ipv4Refusal(embedded.ipv4);
    // A mapped address is its IPv4 address: say what that is.
    if (inner) return address.range() === 'ipv4Mapped' ? inner : `${embedded.form} embedding ${embedded.ipv4} (${inner})`;
    if (embedded.always) return embedded.form;
  }
  const range = address.range();
  if (range !== 'unicast') return IPV6_KINDS[range] ?? 'a reserved address';
  // Global unicast is 2000::/3; the rest of the unicast space is not assigned.
  if (!address.match(ipaddr.IPv6.parse('2000::'), 3)) return 'a reserved address';
  return undefined;
}

/** Why an outgoing call may not connect to this address, or undefined when it may. */
export type AddressPolicy = (address: string) => string | undefined;

/**
 * Refuses every address but ordinary public unicast: loopback, private, link-local,
 * site-local, metadata, reserved and special-purpose ranges, and every IPv6 form that
 * carries an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo, ISATAP), whatever it
 * carries, since a translator on the path would connect to that IPv4 address.
 */
export const refusePrivateAddresses: AddressPolicy = (address) => {
  const bare = address.replace(/%.*$/, ''); // a zone index (fe80::1%eth0) names an interface, not an address
  if (!ipaddr.isValid(bare) || !/^[\d.]+$|:/.test(bare)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(bare);
  const reason = parsed.kind() === 'ipv4' ? ipv4Refusal(parsed as ipaddr.IPv4) : ipv6Refusal(parsed as ipaddr.IPv6);
  return reason === undefined ? undefined : `${address} is ${reason}`;
};

export const allowEveryAddress: AddressPolicy = () => undefined;

/** The first error in a chain of causes (and aggregate errors) that passes the test: undici wraps what went wrong. */
export function findCause(error: unknown, test: (e: unknown) => boolean): Error | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (test(e)) return e as Error;
    if (e instanceof AggregateError) for (const inner of e.errors) if (test(inner)) return inner as Error;
  }
  return undefined;
}

/** The address refusal behind a failed connection, if that is what failed it. */
export const refusalIn = (error: unknown) => findCause(error, (e) => e instanceof RefusedAddressError) as RefusedAddressError | undefined;

export class RefusedAddressError extends Error {
  readonly code = 'ERR_ADDRESS_REFUSED';
}

/** The address inside brackets of a URL hostname ([::1] -> ::1); a name stays as it is. */
export const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * A DNS lookup for net.connect that refuses the connection when any address the name
 * resolves to is refused, so the check and the connection use the same answer (no
 * second resolution an attacker's DNS could answer differently).
 */
export function checkedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.map((a) => policy(a.address)).find((reason) => reason !== undefined);
      if (refused) return callback(new RefusedAddressError(`${hostname} resolves to ${refused}`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}
