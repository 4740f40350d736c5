// Which addresses an outbound call whose URL came from input (a run's webhook, a deployment's
// custom_url, an OAuth provider's token URL) may reach. Literal addresses are judged when the URL
// is accepted; names are judged when they are resolved, by the lookup the connection then uses, so
// the address that was checked is the one connected to (no second resolution to rebind).
import dns from "node:dns";
import net from "node:net";
import { NETWORK_NAMES, NETWORKS, parseCidr, type NetworkName } from "./networks";

export class OutboundRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OutboundRefusedError";
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** "a loopback address", "an unspecified address". */
const kind = (network: NetworkName) => `${/^[aeiou]/.test(network) ? "an" : "a"} ${network} address`;

const familyOf = (address: string): "ipv4" | "ipv6" => (net.isIPv6(address) ? "ipv6" : "ipv4");

function blockListOf(cidrs: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  for (const cidr of cidrs) {
    const parsed = parseCidr(cidr);
    if (!parsed || !net.isIP(parsed.address)) throw new Error(`${cidr} is not an address or CIDR range`);
    list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return list;
}

/** The address in a URL's host, brackets taken off; undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return net.isIP(bare) ? bare : undefined;
}

export class OutboundPolicy {
  private readonly refused = NETWORK_NAMES.map((name) => ({ name, list: blockListOf(NETWORKS[name]) }));
  private readonly allowed: net.BlockList;

  /** `allow`: network names (loopback, private, link-local...) and addresses or CIDR ranges. */
  constructor(readonly allow: readonly string[] = []) {
    const cidrs: string[] = [];
    for (const entry of allow) {
      if ((NETWORK_NAMES as string[]).includes(entry)) cidrs.push(...NETWORKS[entry as NetworkName]);
      else cidrs.push(entry);
    }
    this.allowed = blockListOf(cidrs);
  }

  /**
   * OUTBOUND_ALLOW's value: entries separated by commas or spaces. Throws a sentence naming the
   * entry that is neither a network name nor an address or range.
   */
  static fromSetting(value: string | undefined): OutboundPolicy {
    const entries = (value ?? "")
      .split(/[\s,]+/)
      .map((entry) => entry.trim())
      .filter(Boolean);
    for (const entry of entries) {
      const parsed = parseCidr(entry);
      if (!(NETWORK_NAMES as string[]).includes(entry) && !(parsed && net.isIP(parsed.address))) {
        throw new Error(`"${entry}" is neither an address, a CIDR range nor one of ${NETWORK_NAMES.join(", ")}`);
      }
    }
    return new OutboundPolicy(entries);
  }

  /** The refused network `address` is in, or undefined when it may be called. */
  refusedNetwork(address: string): NetworkName | undefined {
    const family = familyOf(address);
    if (this.allowed.check(address, family)) return undefined;
    return this.refused.find(({ list }) => list.check(address, family))?.name;
  }

  /** Why `address` may not be called (a sentence), or undefined when it may. */
  refusal(address: string): string | undefined {
    const network = this.refusedNetwork(address);
    return network ? `${address} is ${kind(network)}, which outbound calls may not reach` : undefined;
  }

  /**
   * For a URL taken from input, when it is accepted: a sentence when its host is a literal address
   * that may not be called; undefined for an allowed address or a name (judged when resolved).
   */
  urlRefusal(url: string): string | undefined {
    let hostname: string;
    try {
      hostname = new URL(url).hostname;
    } catch {
      return undefined; // not this check's business: the caller validates the URL's form
    }
    const address = literalAddress(hostname);
    return address ? this.refusal(address) : undefined;
  }

  /** Throws OutboundRefusedError when `url`'s host is a literal address that may not be called. */
  checkUrl(url: string): void {
    const refusal = this.urlRefusal(url);
    if (refusal) throw new OutboundRefusedError(refusal);
  }

  /**
   * A `dns.lookup` for sockets: resolves, and fails when any answer may not be called (a name
   * with one internal address among public ones is refused whole rather than half-used).
   */
  readonly lookup = (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const network = this.refusedNetwork(address);
        if (network) {
          const refused = new OutboundRefusedError(
            `${hostname} resolves to ${address}, ${kind(network)}, which outbound calls may not reach`,
          );
          return callback(Object.assign(refused, { code: "EOUTBOUNDREFUSED" }), []);
        }
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      return callback(null, first.address, first.family);
    });
  };
}
