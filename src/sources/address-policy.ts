import { isIPv4, isIPv6 } from 'node:net';

/**
 * Where a feed URL may lead (CONTRACT.md, `--allow-private-source`). Judged on the address that is
 * then connected to, never on the host name: a name may resolve anywhere.
 */
export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'unspecified';

/** The kind of an IPv4 or IPv6 address (IPv4-mapped IPv6 is judged as the IPv4 inside). */
export function classifyAddress(address: string): AddressKind {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(bare)) return classifyV4(bare.split('.').map(Number));
  if (isIPv6(bare)) return classifyV6(expandV6(bare));
  // Not an address at all: the caller connects only to what a lookup returned, so this is a bug.
  throw new TypeError(`not an IP address: ${address}`);
}

function classifyV4([a = 0, b = 0]: number[]): AddressKind {
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  return 'public';
}

function classifyV6(words: number[]): AddressKind {
  const [w0 = 0, , , , , w5 = 0, w6 = 0, w7 = 0] = words;
  const zerosTo = (end: number) => words.slice(0, end).every((word) => word === 0);
  if (zerosTo(8)) return 'unspecified';
  if (zerosTo(7) && w7 === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (the old compatible form) carry an IPv4 address.
  if (zerosTo(5) && (w5 === 0xffff || w5 === 0)) return classifyV4([w6 >> 8, w6 & 0xff, w7 >> 8, w7 & 0xff]);
  if ((w0 & 0xfe00) === 0xfc00) return 'private';
  if ((w0 & 0xffc0) === 0xfec0) return 'private';
  if ((w0 & 0xffc0) === 0xfe80) return 'link-local';
  return 'public';
}

/** Eight 16-bit words of an IPv6 address, `::` and a trailing dotted IPv4 expanded. */
function expandV6(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((word) => Number.parseInt(word, 16));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const DESCRIBED: Record<AddressKind, string> = {
  public: 'a public address',
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address (such as a cloud metadata service)',
  unspecified: 'the unspecified address',
};

export function describeKind(kind: AddressKind): string {
  return DESCRIBED[kind];
}

/**
 * Why connecting to an address of `kind` is refused, or undefined when it is allowed. Link-local and
 * unspecified addresses are never a feed; loopback and private ones are when the operator names
 * them, but not when a redirect from a public address leads there (`from` is the kind of the
 * address that answered with the redirect; undefined for the URL the operator gave).
 */
export function refusal(
  kind: AddressKind,
  from: AddressKind | undefined,
  allowPrivate: boolean,
): string | undefined {
  if (allowPrivate) return undefined;
  if (kind === 'link-local' || kind === 'unspecified') return describeKind(kind);
  if (from === 'public' && (kind === 'loopback' || kind === 'private')) {
    return `${describeKind(kind)}, from a public one`;
  }
  return undefined;
}
