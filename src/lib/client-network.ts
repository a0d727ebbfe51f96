// The place a request comes from, as the sign-in codes count it (src/modules/people/sign-in-codes.ts):
// an IPv4 client's address, or an IPv6 client's /64 network. One IPv6 host is usually
// given a whole /64 and may pick any address of it (privacy addresses change by the day),
// so counting single IPv6 addresses would give one attacker 2^64 "places" and a person's
// own phone and laptop at home two different ones.
import { isIPv6 } from 'node:net';

/** `request.ip` (the socket's peer, or what a trusted proxy forwarded) as a network key. */
export function clientNetwork(address: string): string {
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  // ::ffff:a.b.c.d is an IPv4 client seen through a dual-stack socket.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (with `::`, an IPv4 tail or a zone id). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const before = head ? head.split(':') : [];
  const after = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - before.length - after.length).fill('0');
  return [...before, ...zeros, ...after].map((g) => parseInt(g, 16));
}
