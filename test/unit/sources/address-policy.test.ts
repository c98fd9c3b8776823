import { describe, expect, it } from 'vitest';
import { classifyAddress, refusal } from '../../../src/sources/address-policy.js';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['172.15.0.1', 'public'],
    ['172.32.0.1', 'public'],
    ['2001:db8::1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fdff:ffff::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['[::1]', 'loopback'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('refusal', () => {
  it.each([
    ['link-local', undefined, 'a link-local address (such as a cloud metadata service)'],
    ['unspecified', undefined, 'the unspecified address'],
    ['loopback', undefined, undefined],
    ['private', undefined, undefined],
    ['public', 'public', undefined],
    ['loopback', 'public', 'a loopback address, from a public one'],
    ['private', 'public', 'a private address, from a public one'],
    ['private', 'private', undefined],
    ['loopback', 'loopback', undefined],
    ['link-local', 'private', 'a link-local address (such as a cloud metadata service)'],
  ] as const)('%s, reached from %s: %s', (kind, from, expected) => {
    expect(refusal(kind, from, false)).toBe(expected);
    expect(refusal(kind, from, true)).toBeUndefined();
  });
});
