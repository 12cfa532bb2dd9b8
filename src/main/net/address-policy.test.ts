import { describe, expect, it } from 'vitest';
import { addressRefusal, isIpLiteral, isPublicAddress } from './address-policy';

describe('addressRefusal', () => {
  const refused: [string, RegExp][] = [
    ['127.0.0.1', /loopback/u],
    ['127.255.0.9', /loopback/u],
    ['::1', /loopback/u],
    ['10.1.2.3', /private/u],
    ['172.16.0.1', /private/u],
    ['172.31.255.254', /private/u],
    ['192.168.1.1', /private/u],
    ['169.254.1.1', /link-local/u],
    ['fe80::1', /link-local/u],
    ['169.254.169.254', /metadata/u],
    ['fd00:ec2::254', /metadata/u],
    ['100.64.0.1', /carrier-grade NAT/u],
    ['100.127.255.255', /carrier-grade NAT/u],
    ['224.0.0.1', /multicast/u],
    ['239.255.255.250', /multicast/u],
    ['ff02::1', /multicast/u],
    ['0.0.0.0', /unspecified/u],
    ['0.1.2.3', /unspecified/u],
    ['::', /unspecified/u],
    ['255.255.255.255', /broadcast/u],
    ['fc00::1', /unique-local/u],
    ['fd12:3456::1', /unique-local/u],
    ['fec0::1', /site-local/u],
    ['::ffff:127.0.0.1', /IPv4-mapped .*127\.0\.0\.1.*loopback/u],
    ['::ffff:7f00:1', /IPv4-mapped .*loopback/u],
    ['::ffff:10.0.0.1', /IPv4-mapped .*private/u],
    ['::ffff:169.254.169.254', /IPv4-mapped .*metadata/u],
    ['64:ff9b::10.0.0.1', /NAT64 .*10\.0\.0\.1.*private/u],
    ['64:ff9b::7f00:1', /NAT64 .*127\.0\.0\.1/u],
    ['64:ff9b:1::1', /local-use NAT64/u],
    ['2002:c0a8:0101::1', /6to4 .*192\.168\.1\.1.*private/u],
    ['2002:7f00:0001::', /6to4 .*127\.0\.0\.1/u],
    // IPv4-compatible (deprecated): ipaddr.js reads the dotted form as mapped, the hex form as unicast.
    ['::127.0.0.1', /127\.0\.0\.1/u],
    ['::7f00:1', /global unicast/u],
    ['2001::1', /Teredo/u],
    ['192.0.2.10', /documentation/u],
    ['198.51.100.7', /documentation/u],
    ['203.0.113.99', /documentation/u],
    ['2001:db8::1', /documentation/u],
    ['198.18.0.1', /reserved/u],
    ['240.0.0.1', /reserved/u],
    ['fe80::1%eth0', /zone|link-local/u],
    ['localhost', /not a plain IP/u],
    ['0x7f.1', /not a plain IP/u],
  ];
  for (const [address, reason] of refused) {
    it(`refuses ${address}`, () => {
      expect(addressRefusal(address)).toMatch(reason);
      expect(isPublicAddress(address)).toBe(false);
    });
  }

  const allowed = ['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:0808:0808::1', '[2606:4700:4700::1111]'];
  for (const address of allowed) {
    it(`allows the public address ${address}`, () => {
      expect(addressRefusal(address)).toBeNull();
    });
  }

  it('recognises IP literals as a URL writes them', () => {
    expect(isIpLiteral('127.0.0.1')).toBe(true);
    expect(isIpLiteral('[::1]')).toBe(true);
    expect(isIpLiteral('example.org')).toBe(false);
    expect(isIpLiteral('1.2.3')).toBe(false);
  });
});
