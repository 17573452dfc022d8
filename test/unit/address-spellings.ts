// The shared table of address spellings: every way a resolver, connect() or the WHATWG URL parser reads an address,
// with the verdict the one address policy gives under the default deny list. Admission (the schema library, and so
// the webhook and `cluster-probe validate`) and the probe engine's connect-time guard are both run over it.

/** `allowed`, `unspecified`, or the deny-list entry that must be named. */
export type Verdict = 'allowed' | 'unspecified' | string;

export interface Spelling {
  host: string;
  verdict: Verdict;
  /** What it is, for the test title. */
  note: string;
}

export const METADATA = '169.254.0.0/16';
export const ALIBABA = '100.100.100.200/32';

export const SPELLINGS: readonly Spelling[] = [
  // --- the link-local metadata address 169.254.169.254, in every IPv4 spelling -----------------------------------
  { host: '169.254.169.254', verdict: METADATA, note: 'dotted decimal' },
  { host: '0xa9fea9fe', verdict: METADATA, note: 'one hexadecimal number' },
  { host: '0xA9FEA9FE', verdict: METADATA, note: 'one hexadecimal number, upper-case digits' },
  { host: '0XA9FEA9FE', verdict: METADATA, note: 'one hexadecimal number, upper-case prefix' },
  { host: '0xa9.0xfe.0xa9.0xfe', verdict: METADATA, note: 'four hexadecimal parts' },
  { host: '0251.0376.0251.0376', verdict: METADATA, note: 'four octal parts' },
  { host: '00000251.0376.0251.0376', verdict: METADATA, note: 'octal with extra leading zeros' },
  { host: '0x00a9.254.169.254', verdict: METADATA, note: 'hexadecimal with leading zeros' },
  { host: '169.254.43518', verdict: METADATA, note: 'three parts (a.b.c)' },
  { host: '169.16689662', verdict: METADATA, note: 'two parts (a.b)' },
  { host: '2852039166', verdict: METADATA, note: 'one decimal number' },
  { host: '025177524776', verdict: METADATA, note: 'one octal number' },
  { host: '0251.0xfe.43518', verdict: METADATA, note: 'mixed octal, hexadecimal and decimal, three parts' },
  { host: '169.254.169.254.', verdict: METADATA, note: 'trailing dot (the URL parser drops it)' },
  { host: '169.254.1.1', verdict: METADATA, note: 'elsewhere in link-local' },
  {
    host: '\uff11\uff16\uff19.\uff12\uff15\uff14.\uff11\uff16\uff19.\uff12\uff15\uff14',
    verdict: METADATA,
    note: 'full-width digits (the URL parser maps them)',
  },
  // --- IPv6 forms that embed it ---------------------------------------------------------------------------------
  { host: '::ffff:169.254.169.254', verdict: METADATA, note: 'IPv4-mapped' },
  { host: '::ffff:a9fe:a9fe', verdict: METADATA, note: 'IPv4-mapped, hexadecimal' },
  { host: '[::ffff:a9fe:a9fe]', verdict: METADATA, note: 'IPv4-mapped in brackets' },
  { host: '0:0:0:0:0:ffff:a9fe:a9fe', verdict: METADATA, note: 'IPv4-mapped, uncompressed' },
  { host: '::FFFF:A9FE:A9FE', verdict: METADATA, note: 'IPv4-mapped, upper case' },
  { host: '::169.254.169.254', verdict: METADATA, note: 'IPv4-compatible' },
  { host: '::a9fe:a9fe', verdict: METADATA, note: 'IPv4-compatible, hexadecimal' },
  { host: '::ffff:0:a9fe:a9fe', verdict: METADATA, note: 'IPv4-translated (SIIT)' },
  { host: '64:ff9b::169.254.169.254', verdict: METADATA, note: 'NAT64 well-known prefix' },
  { host: '64:ff9b::a9fe:a9fe', verdict: METADATA, note: 'NAT64, hexadecimal' },
  { host: '2002:a9fe:a9fe::', verdict: METADATA, note: '6to4' },
  { host: '2002:a9fe:a9fe:1::1', verdict: METADATA, note: '6to4 with a subnet and interface id' },
  // --- Alibaba Cloud's metadata address ------------------------------------------------------------------------
  { host: '100.100.100.200', verdict: ALIBABA, note: 'dotted decimal' },
  { host: '0x646464c8', verdict: ALIBABA, note: 'one hexadecimal number' },
  { host: '1684301000', verdict: ALIBABA, note: 'one decimal number' },
  { host: '0144.0144.0144.0310', verdict: ALIBABA, note: 'four octal parts' },
  { host: '64:ff9b::6464:64c8', verdict: ALIBABA, note: 'NAT64' },
  // --- IPv6 entries of the list --------------------------------------------------------------------------------
  { host: 'fe80::1', verdict: 'fe80::/10', note: 'IPv6 link-local' },
  { host: '[fe80::1]', verdict: 'fe80::/10', note: 'IPv6 link-local in brackets' },
  { host: 'FE80::1', verdict: 'fe80::/10', note: 'IPv6 link-local, upper case' },
  { host: 'fe80::1%eth0', verdict: 'fe80::/10', note: 'IPv6 link-local with a zone' },
  { host: 'febf:ffff::1', verdict: 'fe80::/10', note: 'top of fe80::/10' },
  { host: 'fd00:ec2::254', verdict: 'fd00:ec2::254/128', note: 'AWS IMDS over IPv6' },
  { host: 'fd00:0ec2:0:0:0:0:0:0254', verdict: 'fd00:ec2::254/128', note: 'AWS IMDS over IPv6, uncompressed' },
  // --- the unspecified addresses, denied whatever the list says ------------------------------------------------
  { host: '0.0.0.0', verdict: 'unspecified', note: 'dotted decimal' },
  { host: '0', verdict: 'unspecified', note: 'one number' },
  { host: '00', verdict: 'unspecified', note: 'octal zero' },
  { host: '0x0', verdict: 'unspecified', note: 'hexadecimal zero' },
  { host: '0x', verdict: 'unspecified', note: 'empty hexadecimal (the URL parser reads 0)' },
  { host: '0.0', verdict: 'unspecified', note: 'two parts' },
  { host: '0.0.0', verdict: 'unspecified', note: 'three parts' },
  { host: '0.0.0.0.', verdict: 'unspecified', note: 'trailing dot' },
  { host: '::', verdict: 'unspecified', note: 'IPv6' },
  { host: '[::]', verdict: 'unspecified', note: 'IPv6 in brackets' },
  { host: '0:0:0:0:0:0:0:0', verdict: 'unspecified', note: 'IPv6 uncompressed' },
  { host: '::0.0.0.0', verdict: 'unspecified', note: 'IPv4-compatible 0.0.0.0' },
  { host: '::ffff:0.0.0.0', verdict: 'unspecified', note: 'IPv4-mapped 0.0.0.0' },
  { host: '::ffff:0:0', verdict: 'unspecified', note: 'IPv4-mapped 0.0.0.0, hexadecimal' },
  // --- allowed: loopback (the tests and the bench run there), near misses and names ------------------------------
  { host: '127.0.0.1', verdict: 'allowed', note: 'loopback' },
  { host: '127.1', verdict: 'allowed', note: 'loopback, two parts' },
  { host: '0x7f.1', verdict: 'allowed', note: 'loopback, hexadecimal' },
  { host: '2130706433', verdict: 'allowed', note: 'loopback, one number' },
  { host: '::1', verdict: 'allowed', note: 'IPv6 loopback' },
  { host: '::ffff:127.0.0.1', verdict: 'allowed', note: 'IPv4-mapped loopback' },
  { host: '10.20.0.5', verdict: 'allowed', note: 'a private address' },
  { host: '169.253.255.255', verdict: 'allowed', note: 'just below link-local' },
  { host: '0xa9fdffff', verdict: 'allowed', note: 'just below link-local, hexadecimal' },
  { host: '169.255.0.0', verdict: 'allowed', note: 'just above link-local' },
  { host: '100.100.100.201', verdict: 'allowed', note: 'next to Alibaba metadata' },
  { host: 'fec0::1', verdict: 'allowed', note: 'just above fe80::/10' },
  { host: 'fd00:ec2::253', verdict: 'allowed', note: 'next to AWS IMDS' },
  { host: '64:ff9b::a14:5', verdict: 'allowed', note: 'NAT64 of a private address' },
  { host: '2002:a14:5::1', verdict: 'allowed', note: '6to4 of a private address' },
  { host: 'member.example.com', verdict: 'allowed', note: 'a DNS name (checked after resolution)' },
  { host: '0xa9fea9fe.example.com', verdict: 'allowed', note: 'a DNS name that starts like a number' },
  { host: '1.2.3.4.5', verdict: 'allowed', note: 'five parts: a DNS name, not an address' },
  { host: '169.254.169.09', verdict: 'allowed', note: 'not octal (09): a DNS name, not an address' },
];
