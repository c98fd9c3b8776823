import { describe, expect, it } from 'vitest';
import { classifyAddress, describeAddress, refusal } from '../../../src/net/address-policy.js';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['172.15.0.1', 'public'],
    ['172.32.0.1', 'public'],
    ['100.63.255.255', 'public'],
    ['100.128.0.1', 'public'],
    ['2001:db8::1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.254', 'shared'],
    ['fc00::1', 'unique-local'],
    ['fd00::5', 'unique-local'],
    ['fdff:ffff::1', 'unique-local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['192.0.0.192', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['FD00:EC2:0:0:0:0:0:254', 'metadata'],
    ['[fd00:ec2::254]', 'metadata'],
    ['fd20:ce::254', 'metadata'],
    // IPv4-mapped, in its dotted and its hex form (the URL parser gives the hex one)
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['[::ffff:a9fe:a9fe]', 'metadata'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:100.64.0.1', 'shared'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:8.8.8.8', 'public'],
    // IPv4-translated and IPv4-compatible
    ['::ffff:0:a9fe:a9fe', 'metadata'],
    ['::a9fe:a9fe', 'metadata'],
    ['::169.254.169.254', 'metadata'],
    ['::a9fe:101', 'link-local'],
    // NAT64: the well-known prefix and the local-use one (at each of its prefix lengths)
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::169.254.169.254', 'metadata'],
    ['64:ff9b::6464:64c8', 'metadata'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::808:808', 'public'],
    ['64:ff9b:1::a9fe:a9fe', 'metadata'],
    ['64:ff9b:1:a9fe:a9:fe00::', 'metadata'],
    ['64:ff9b:1:a9:fe:a9fe::', 'metadata'],
    ['64:ff9b:1:a9:fea9:fe00::', 'unspecified'],
    ['64:ff9b:1:0:a9:fea9:fe00:0', 'metadata'],
    ['64:ff9b:1::cb00:710a', 'public'],
    // 6to4
    ['2002:a9fe:a9fe::1', 'metadata'],
    ['2002:6464:0001::', 'shared'],
    ['2002:808:808::1', 'public'],
    // Teredo (2001:0::/32): the client's IPv4 address is the last 32 bits, each bit inverted
    ['2001:0:4136:e378:8000:63bf:5601:5601', 'metadata'],
    ['[2001:0000:4136:e378:8000:63bf:5601:5601]', 'metadata'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'private'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'public'],
    ['2001:1::1', 'public'],
    // Multicast and broadcast
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    ['::ffff:224.0.0.251', 'multicast'],
    ['64:ff9b::e000:fb', 'multicast'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('names the IPv4 address an IPv6 form carries, for messages', () => {
    expect(describeAddress('64:ff9b::a9fe:a9fe')).toBe('64:ff9b::a9fe:a9fe (169.254.169.254 through NAT64)');
    expect(describeAddress('::ffff:a9fe:a9fe')).toBe(
      '::ffff:a9fe:a9fe (169.254.169.254 through IPv4-mapped)',
    );
    expect(describeAddress('2002:a9fe:a9fe::1')).toBe('2002:a9fe:a9fe::1 (169.254.169.254 through 6to4)');
    expect(describeAddress('2001:0:4136:e378:8000:63bf:5601:5601')).toBe(
      '2001:0:4136:e378:8000:63bf:5601:5601 (169.254.169.254 through Teredo)',
    );
    expect(describeAddress('10.0.0.5')).toBe('10.0.0.5');
    expect(describeAddress('::ffff:a9fe:a9fe', 'feed.example')).toBe(
      'feed.example (::ffff:a9fe:a9fe, 169.254.169.254 through IPv4-mapped)',
    );
  });
});

describe('refusal', () => {
  it.each([
    ['link-local', undefined, 'a link-local address (such as a cloud metadata service)'],
    ['unspecified', undefined, 'the unspecified address'],
    ['metadata', undefined, 'a cloud metadata address'],
    [
      'shared',
      undefined,
      'an address of the shared range 100.64.0.0/10 (carrier and cloud internal networks)',
    ],
    ['unique-local', undefined, 'an IPv6 unique-local address (fc00::/7, internal networks)'],
    ['loopback', undefined, undefined],
    ['private', undefined, undefined],
    ['public', 'public', undefined],
    ['loopback', 'public', 'a loopback address, from a public one'],
    ['private', 'public', 'a private address, from a public one'],
    ['private', 'private', undefined],
    ['loopback', 'loopback', undefined],
    ['link-local', 'private', 'a link-local address (such as a cloud metadata service)'],
    ['unique-local', 'private', 'an IPv6 unique-local address (fc00::/7, internal networks)'],
    ['multicast', undefined, 'a multicast address (224.0.0.0/4, ff00::/8)'],
    ['broadcast', undefined, 'the broadcast address 255.255.255.255'],
  ] as const)('%s, reached from %s: %s', (kind, from, expected) => {
    expect(refusal(kind, from, false)).toBe(expected);
    expect(refusal(kind, from, true)).toBeUndefined();
  });

  it.each([
    ['loopback', undefined, 'a loopback address named by a job file'],
    ['private', undefined, 'a private address named by a job file'],
    ['private', 'private', 'a private address named by a job file'],
    ['public', undefined, undefined],
    ['metadata', undefined, 'a cloud metadata address'],
  ] as const)('named by a job file, %s reached from %s: %s', (kind, from, expected) => {
    expect(refusal(kind, from, false, true)).toBe(expected);
    expect(refusal(kind, from, true, true)).toBeUndefined();
  });
});
