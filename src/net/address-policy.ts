import { isIPv4, isIPv6 } from 'node:net';

/**
 * Where a feed URL, a redirect or a webhook may lead (`--allow-private-source`). Judged on the
 * address that is then connected to, never on the host name: a name may resolve anywhere.
 *
 * `shared` is 100.64.0.0/10 (carrier NAT, and cloud internals such as 100.100.100.200);
 * `unique-local` is IPv6 fc00::/7; `metadata` a known cloud metadata or platform address;
 * `multicast` 224.0.0.0/4 and ff00::/8, `broadcast` 255.255.255.255: no feed or webhook is there,
 * and a packet to one reaches every host of a network.
 */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'shared'
  | 'unique-local'
  | 'multicast'
  | 'broadcast'
  | 'metadata';

/** What an address is, and the IPv4 address it carries when it is an IPv6 form of one. */
export interface AddressReading {
  kind: AddressKind;
  /** e.g. `169.254.169.254 through NAT64`: said in messages, so the refusal reads as what it is. */
  carries?: string;
}

/**
 * Cloud metadata and platform addresses. Most sit in a range refused anyway; listed so messages
 * name them, and for those outside (Azure's 168.63.129.16, Oracle's 192.0.0.192).
 */
const METADATA_V4 = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle…
  '169.254.169.253', // AWS DNS
  '169.254.169.123', // AWS time
  '169.254.170.2', // AWS ECS task credentials
  '169.254.0.23', // Tencent Cloud
  '100.100.100.200', // Alibaba Cloud
  '168.63.129.16', // Azure WireServer
  '192.0.0.192', // Oracle Cloud (legacy)
]);
const METADATA_V6 = new Set(
  ['fd00:ec2::254', 'fd00:ec2::253', 'fd00:ec2::123', 'fd20:ce::254'].map((text) =>
    bytesOfV6(text).join('.'),
  ),
);

/** How bad reaching each kind is: a form that may mean several addresses is judged by the worst. */
const SEVERITY: readonly AddressKind[] = [
  'public',
  'private',
  'loopback',
  'shared',
  'unique-local',
  'multicast',
  'broadcast',
  'unspecified',
  'link-local',
  'metadata',
];

export function classifyAddress(address: string): AddressKind {
  return readAddress(address).kind;
}

/** The kind of an IPv4 or IPv6 address; an IPv6 form of an IPv4 address is judged as that IPv4 address. */
export function readAddress(address: string): AddressReading {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(bare)) return { kind: classifyV4(bare.split('.').map(Number)) };
  if (isIPv6(bare)) return readV6(bytesOfV6(bare));
  // Not an address at all: the caller connects only to what a lookup returned, so this is a bug.
  throw new TypeError(`not an IP address: ${address}`);
}

function classifyV4(octets: number[]): AddressKind {
  const [a = 0, b = 0] = octets;
  if (METADATA_V4.has(octets.join('.'))) return 'metadata';
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 100 && (b & 0xc0) === 64) return 'shared';
  if (a >= 224 && a <= 239) return 'multicast';
  if (octets.every((octet) => octet === 255)) return 'broadcast';
  return 'public';
}

function readV6(bytes: number[]): AddressReading {
  const zero = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  if (zero(0, 16)) return { kind: 'unspecified' };
  if (zero(0, 15) && bytes[15] === 1) return { kind: 'loopback' };
  if (METADATA_V6.has(bytes.join('.'))) return { kind: 'metadata' };
  const carried = carriedIPv4(bytes, zero);
  if (carried) return carried;
  const [b0 = 0, b1 = 0] = bytes;
  if (b0 === 0xff) return { kind: 'multicast' };
  if ((b0 & 0xfe) === 0xfc) return { kind: 'unique-local' };
  if (b0 === 0xfe && (b1 & 0xc0) === 0xc0) return { kind: 'private' }; // fec0::/10, site-local (deprecated)
  if (b0 === 0xfe && (b1 & 0xc0) === 0x80) return { kind: 'link-local' };
  return { kind: 'public' };
}

/**
 * The IPv6 forms that reach an IPv4 address: IPv4-mapped (::ffff:a.b.c.d), IPv4-translated
 * (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96, and the local-use
 * 64:ff9b:1::/48 with any of the RFC 6052 prefix lengths it may use), 6to4 (2002::/16) and Teredo
 * (2001:0::/32, the client's address in the last 32 bits with every bit inverted).
 */
function carriedIPv4(bytes: number[], zero: (from: number, to: number) => boolean): AddressReading | null {
  const at = (...positions: number[]) => positions.map((position) => bytes[position] ?? 0);
  const word = (index: number) => ((bytes[index] ?? 0) << 8) | (bytes[index + 1] ?? 0);
  const tail = at(12, 13, 14, 15);
  if (zero(0, 10) && word(10) === 0xffff) return judged([tail], 'IPv4-mapped');
  if (zero(0, 8) && word(8) === 0xffff && zero(10, 12)) return judged([tail], 'IPv4-translated');
  if (zero(0, 12)) return judged([tail], 'IPv4-compatible');
  if (word(0) === 0x64 && word(2) === 0xff9b && zero(4, 12)) return judged([tail], 'NAT64');
  if (word(0) === 0x64 && word(2) === 0xff9b && word(4) === 0x1) {
    // Local-use NAT64: the translator's prefix length is not in the address, so every length is read
    // (bits 64–71 are zero in all but /96) and the worst reading wins; 0.0.0.0/8 is never translated.
    const readings = [tail];
    if (bytes[8] === 0) readings.push(at(6, 7, 9, 10), at(7, 9, 10, 11), at(9, 10, 11, 12));
    return judged(
      readings.filter((octets, index) => index === 0 || octets[0] !== 0),
      'local-use NAT64',
    );
  }
  if (word(0) === 0x2002) return judged([at(2, 3, 4, 5)], '6to4');
  if (word(0) === 0x2001 && word(2) === 0) return judged([tail.map((octet) => octet ^ 0xff)], 'Teredo');
  return null;
}

function judged(readings: number[][], form: string): AddressReading {
  let worst = readings[0] as number[];
  for (const octets of readings) {
    if (SEVERITY.indexOf(classifyV4(octets)) > SEVERITY.indexOf(classifyV4(worst))) worst = octets;
  }
  return { kind: classifyV4(worst), carries: `${worst.join('.')} through ${form}` };
}

/** Sixteen bytes of an IPv6 address (already checked by isIPv6), `::` and a trailing dotted IPv4 expanded. */
function bytesOfV6(address: string): number[] {
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
  const words = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

const DESCRIBED: Record<AddressKind, string> = {
  public: 'a public address',
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address (such as a cloud metadata service)',
  unspecified: 'the unspecified address',
  shared: 'an address of the shared range 100.64.0.0/10 (carrier and cloud internal networks)',
  'unique-local': 'an IPv6 unique-local address (fc00::/7, internal networks)',
  multicast: 'a multicast address (224.0.0.0/4, ff00::/8)',
  broadcast: 'the broadcast address 255.255.255.255',
  metadata: 'a cloud metadata address',
};

export function describeKind(kind: AddressKind): string {
  return DESCRIBED[kind];
}

/**
 * Where a connection would go, as a message names it: `64:ff9b::a9fe:a9fe (169.254.169.254 through
 * NAT64)` for a literal, `feed.example (10.0.0.5)` for a host name and the address it resolved to.
 */
export function describeAddress(address: string, hostname?: string): string {
  const { carries } = readAddress(address);
  if (hostname === undefined) return carries ? `${address} (${carries})` : address;
  return `${hostname} (${address}${carries ? `, ${carries}` : ''})`;
}

/** Never a feed nor a webhook, whoever names it: only the command line's `--allow-private-source` lifts it. */
const NEVER_HEARD: ReadonlySet<AddressKind> = new Set([
  'link-local',
  'unspecified',
  'shared',
  'unique-local',
  'multicast',
  'broadcast',
  'metadata',
]);

/**
 * Why connecting to an address of `kind` is refused, or undefined when it is allowed. Loopback and
 * private addresses are allowed when the operator names them, but not when a redirect from a public
 * address leads there (`from` is the kind of the address that answered with the redirect;
 * undefined for the URL given), nor when a job file named the URL (`namedByJob`: its choices are
 * not trusted, so reaching the operator's own machine or network takes the operator's flag).
 */
export function refusal(
  kind: AddressKind,
  from: AddressKind | undefined,
  allowPrivate: boolean,
  namedByJob = false,
): string | undefined {
  if (allowPrivate) return undefined;
  if (NEVER_HEARD.has(kind)) return describeKind(kind);
  if (namedByJob && (kind === 'loopback' || kind === 'private'))
    return `${describeKind(kind)} named by a job file`;
  if (from === 'public' && (kind === 'loopback' || kind === 'private')) {
    return `${describeKind(kind)}, from a public one`;
  }
  return undefined;
}
