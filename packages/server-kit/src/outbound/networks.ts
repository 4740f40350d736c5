// The address ranges an outbound call taken from input may not reach unless an operator allows
// them: what is inside the machine or its network rather than on the internet (IANA special-purpose
// registries, IPv4 and IPv6; an IPv4-mapped IPv6 address is checked as its IPv4 form by BlockList).
export const NETWORKS = {
  loopback: ["127.0.0.0/8", "::1/128"],
  private: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7"],
  "link-local": ["169.254.0.0/16", "fe80::/10"],
  multicast: ["224.0.0.0/4", "ff00::/8"],
  unspecified: ["0.0.0.0/8", "::/128"],
  // Not routable on the internet, or translating to addresses that may be any of the above.
  reserved: [
    "192.0.0.0/24",
    "192.0.2.0/24",
    "198.18.0.0/15",
    "198.51.100.0/24",
    "203.0.113.0/24",
    "240.0.0.0/4",
    "64:ff9b::/96",
    "64:ff9b:1::/48",
    "100::/64",
    "2001:db8::/32",
    "2002::/16",
  ],
} as const;

export type NetworkName = keyof typeof NETWORKS;

export const NETWORK_NAMES = Object.keys(NETWORKS) as NetworkName[];

/** "a.b.c.d/n" or "x::/n" as BlockList takes it. */
export function parseCidr(cidr: string): { address: string; prefix: number; family: "ipv4" | "ipv6" } | null {
  const [address, bits, extra] = cidr.split("/");
  if (extra !== undefined) return null;
  const family = address.includes(":") ? "ipv6" : "ipv4";
  const max = family === "ipv4" ? 32 : 128;
  const prefix = bits === undefined ? max : Number(bits);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || (bits !== undefined && !/^\d+$/.test(bits)))
    return null;
  return { address, prefix, family };
}
