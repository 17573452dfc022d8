// The address policy shared by admission (src/schema) and connect time (src/probe): a leaf that imports nothing of
// the other layers, so both may import it. Pure: no I/O.
export {
  checkAddress,
  checkParsed,
  CidrError,
  DEFAULT_DENY_CIDRS,
  deniedBecause,
  DenyList,
  denyListFor,
  parseCidr,
  spelledAs,
  type AddressVerdict,
  type Cidr,
} from './policy.js';
export {
  addressText,
  embeddedIPv4,
  formatIPv4,
  hostToASCII,
  ipFamily,
  parseAddress,
  parseIPv4,
  parseIPv6,
  type Embedding,
  type ParsedAddress,
} from './spelling.js';
export { endpointHost, hostOfUrl, parseEndpoint, type EndpointUrl } from './endpoint.js';
