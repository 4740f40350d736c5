// Outbound calls to URLs that came from input reach the internet, not the machine or its network,
// unless an operator allows it: literal addresses in every spelling, and names resolving there.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OutboundPolicy, outboundFetch, refusalOf } from "../src/outbound";

const strict = new OutboundPolicy();

test.each([
  ["http://127.0.0.1/", "loopback"],
  ["http://127.9.9.9:8080/x", "loopback"],
  ["http://2130706433/", "loopback"], // decimal, which URL parsing turns into 127.0.0.1
  ["http://0x7f.1/", "loopback"],
  ["http://[::1]/", "loopback"],
  ["http://[::ffff:127.0.0.1]/", "loopback"], // IPv4-mapped IPv6
  ["http://169.254.169.254/latest/meta-data/", "link-local"], // cloud metadata
  ["http://[fe80::1]/", "link-local"],
  ["http://10.1.2.3/", "private"],
  ["http://172.20.0.1/", "private"],
  ["http://192.168.1.1/", "private"],
  ["http://[fd00::1]/", "private"],
  ["http://[::ffff:10.0.0.1]/", "private"],
  ["http://224.0.0.1/", "multicast"],
  ["http://0.0.0.0/", "unspecified"],
  ["http://[::]/", "unspecified"],
  ["http://[64:ff9b::a00:1]/", "reserved"], // NAT64 of 10.0.0.1
])("%s is refused as a %s address", (url, network) => {
  expect(strict.urlRefusal(url)).toMatch(new RegExp(`is an? ${network} address`));
});

test("public addresses and names pass the literal check (names are judged when resolved)", () => {
  expect(strict.urlRefusal("https://8.8.8.8/hook")).toBeUndefined();
  expect(strict.urlRefusal("https://[2606:4700::1111]/hook")).toBeUndefined();
  expect(strict.urlRefusal("https://hooks.example.com/x")).toBeUndefined();
});

test("an operator's allow-list: network names, addresses and ranges; anything else is refused at start-up", () => {
  const policy = OutboundPolicy.fromSetting("loopback, 10.1.0.0/16 192.168.5.5");
  expect(policy.urlRefusal("http://127.0.0.1:9000/")).toBeUndefined();
  expect(policy.urlRefusal("http://[::1]/")).toBeUndefined();
  expect(policy.urlRefusal("http://10.1.200.3/")).toBeUndefined();
  expect(policy.urlRefusal("http://10.2.0.1/")).toMatch(/private/);
  expect(policy.urlRefusal("http://192.168.5.5/")).toBeUndefined();
  expect(policy.urlRefusal("http://169.254.169.254/")).toMatch(/link-local/);
  expect(() => OutboundPolicy.fromSetting("loopback,intranet")).toThrow(/"intranet" is neither/);
  expect(() => OutboundPolicy.fromSetting("10.0.0.0/33")).toThrow(/10\.0\.0\.0\/33/);
});

describe("fetch under the policy", () => {
  let server: Server;
  let port: number;
  let requests = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      requests++;
      res.end("reached");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  test("a name resolving to loopback (localhost) is refused when resolved, and nothing is sent", async () => {
    const before = requests;
    const error = await outboundFetch(strict)(`http://localhost:${port}/`).catch((caught: unknown) => caught);
    expect(refusalOf(error)).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(requests).toBe(before);
  });

  test("a literal address is refused before connecting", async () => {
    const before = requests;
    const error = await outboundFetch(strict)(`http://127.0.0.1:${port}/`).catch((caught: unknown) => caught);
    expect(refusalOf(error)).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(requests).toBe(before);
  });

  test("allowed, the same calls go through", async () => {
    const fetchAllowed = outboundFetch(OutboundPolicy.fromSetting("loopback"));
    expect(await (await fetchAllowed(`http://localhost:${port}/`)).text()).toBe("reached");
    expect(await (await fetchAllowed(`http://127.0.0.1:${port}/`)).text()).toBe("reached");
  });
});
