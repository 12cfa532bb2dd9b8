// Which IP addresses web_fetch may connect to (seed 000's SSRF rule), and in the team service every
// request to an address a person typed (outbound.ts): only public unicast. Everything that reaches
// the person's own machine, network or cloud metadata is refused, including the IPv6 forms that
// embed an IPv4 address (mapped, NAT64, 6to4), which are judged by the address they embed.
import ipaddr from 'ipaddr.js';

const IPV4_REASONS: Record<string, string> = {
  unspecified: 'an unspecified address (0.0.0.0/8)',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address (169.254.0.0/16)',
  loopback: 'a loopback address (this computer)',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  private: 'a private network address (10/8, 172.16/12, 192.168/16)',
  reserved: 'a reserved or documentation address',
  as112: 'a special-purpose address (AS112)',
  amt: 'a special-purpose address (AMT)',
};

const IPV6_REASONS: Record<string, string> = {
  unspecified: 'the unspecified address (::)',
  linkLocal: 'a link-local address (fe80::/10)',
  multicast: 'a multicast address (ff00::/8)',
  loopback: 'the loopback address (::1, this computer)',
  uniqueLocal: 'a unique-local address (fc00::/7, a private network)',
  deprecatedSiteLocal: 'a site-local address (fec0::/10)',
  discard: 'a discard-only address (100::/64)',
  rfc6145: 'an IPv4-translated address (::ffff:0:0:0/96)',
  teredo: 'a Teredo tunnel address (2001::/32)',
  benchmarking: 'a benchmarking address (2001:2::/48)',
  reserved: 'a reserved or documentation address',
};

const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

function ipv4Refusal(address: ipaddr.IPv4): string | null {
  if (METADATA_ADDRESSES.has(address.toString())) return 'a cloud metadata endpoint';
  const range = address.range();
  if (range === 'unicast') return null;
  return IPV4_REASONS[range] ?? `a special-purpose address (${range})`;
}

function embedded(parts: readonly number[], hi: number, lo: number): ipaddr.IPv4 {
  const a = parts[hi] ?? 0;
  const b = parts[lo] ?? 0;
  return new ipaddr.IPv4([a >> 8, a & 0xff, b >> 8, b & 0xff]);
}

function viaEmbedded(kind: string, v4: ipaddr.IPv4): string | null {
  const inner = ipv4Refusal(v4);
  return inner === null ? null : `${kind} embedding ${v4.toString()}, ${inner}`;
}

function ipv6Refusal(address: ipaddr.IPv6): string | null {
  const normalized = address.toNormalizedString();
  if (METADATA_ADDRESSES.has(address.toString())) return 'a cloud metadata endpoint';
  const range = address.range();
  const parts = address.parts;
  switch (range) {
    case 'ipv4Mapped':
      return viaEmbedded('an IPv4-mapped address', address.toIPv4Address());
    case 'rfc6052':
      // Only the well-known NAT64 prefix has a fixed place for the IPv4 address (the last 32 bits);
      // the local-use prefix 64:ff9b:1::/48 translates into a private network by design.
      if (normalized.startsWith('64:ff9b:0:0:0:0:')) return viaEmbedded('a NAT64 address', embedded(parts, 6, 7));
      return 'a local-use NAT64 address (64:ff9b:1::/48)';
    case '6to4':
      return viaEmbedded('a 6to4 address', embedded(parts, 1, 2));
    case 'unicast':
      // Global unicast is 2000::/3; anything else ipaddr.js calls unicast (such as the deprecated
      // IPv4-compatible ::a.b.c.d) is not a public Internet address.
      if (((parts[0] ?? 0) & 0xe000) !== 0x2000) return 'not a global unicast address (outside 2000::/3)';
      return null;
    default:
      return IPV6_REASONS[range] ?? `a special-purpose address (${range})`;
  }
}

/** Why connecting to `address` is refused, or null when it is a public unicast address. */
export function addressRefusal(address: string): string | null {
  const bare = address.replace(/^\[|\]$/gu, '');
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipv4Refusal(ipaddr.IPv4.parse(bare));
  if (bare.includes(':') && ipaddr.IPv6.isValid(bare)) {
    const v6 = ipaddr.IPv6.parse(bare);
    if (v6.zoneId !== undefined) return 'a scoped (zone) address';
    return ipv6Refusal(v6);
  }
  return 'not a plain IP address';
}

export function isPublicAddress(address: string): boolean {
  return addressRefusal(address) === null;
}

/** True when the host part of a URL is an IP literal (so no DNS is involved). */
export function isIpLiteral(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/gu, '');
  return ipaddr.IPv4.isValidFourPartDecimal(bare) || (bare.includes(':') && ipaddr.IPv6.isValid(bare));
}
