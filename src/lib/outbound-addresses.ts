// Which addresses the platform's outgoing calls (image downloads, webhooks) may not reach
// unless ALLOW_PRIVATE_ADDRESSES allows them (conventions.md): loopback, private,
// link-local and cloud metadata addresses, and the special ranges no public server lives
// in. Checked on the address actually connected to: a name is resolved once, by the
// lookup the connection uses, so a public name that resolves to a private address is
// refused too, and DNS cannot answer differently between the check and the use.
import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

type Family = 'ipv4' | 'ipv6';

const ranges: [kind: string, Family, network: string, prefix: number][] = [
  // Metadata services first: they sit inside the link-local and private ranges, and the
  // reason should name them.
  ['a cloud metadata address', 'ipv4', '169.254.169.254', 32],
  ['a cloud metadata address', 'ipv4', '169.254.170.2', 32],
  ['a cloud metadata address', 'ipv4', '100.100.100.200', 32],
  ['a cloud metadata address', 'ipv4', '168.63.129.16', 32],
  ['a cloud metadata address', 'ipv6', 'fd00:ec2::254', 128],
  ['a loopback address', 'ipv4', '127.0.0.0', 8],
  ['a loopback address', 'ipv6', '::1', 128],
  ['an unspecified address', 'ipv4', '0.0.0.0', 8],
  ['an unspecified address', 'ipv6', '::', 128],
  ['a private address', 'ipv4', '10.0.0.0', 8],
  ['a private address', 'ipv4', '172.16.0.0', 12],
  ['a private address', 'ipv4', '192.168.0.0', 16],
  ['a private address', 'ipv4', '100.64.0.0', 10],
  ['a private address', 'ipv6', 'fc00::', 7],
  ['a link-local address', 'ipv4', '169.254.0.0', 16],
  ['a link-local address', 'ipv6', 'fe80::', 10],
  ['a reserved address', 'ipv4', '192.0.0.0', 24],
  ['a reserved address', 'ipv4', '198.18.0.0', 15],
  ['a reserved address', 'ipv4', '224.0.0.0', 4],
  ['a reserved address', 'ipv4', '240.0.0.0', 4],
  ['a reserved address', 'ipv6', 'ff00::', 8],
  // IPv4-compatible (deprecated) addresses; IPv4-mapped ones (::ffff:a.b.c.d) are checked
  // against the IPv4 ranges by BlockList itself.
  ['a reserved address', 'ipv6', '::', 96],
];

const lists = new Map<string, BlockList>();
for (const [kind, family, network, prefix] of ranges) {
  let list = lists.get(kind);
  if (!list) lists.set(kind, (list = new BlockList()));
  list.addSubnet(network, prefix, family);
}

/** Why an outgoing call may not connect to this address, or undefined when it may. */
export type AddressPolicy = (address: string) => string | undefined;

export const refusePrivateAddresses: AddressPolicy = (address) => {
  const version = isIP(address);
  if (version === 0) return `${address} is not an IP address`;
  const family: Family = version === 4 ? 'ipv4' : 'ipv6';
  for (const [kind, list] of lists) if (list.check(address, family)) return `${address} is ${kind}`;
  return undefined;
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
