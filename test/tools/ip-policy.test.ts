import { describe, expect, it } from "vitest";
import { blockedReason, isPublicAddress, matchesAddress } from "../../lib/net/index.ts";

describe("ip policy", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["198.18.0.1", "reserved"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fc00::1", "uniqueLocal"],
    ["fd12:3456::1", "uniqueLocal"],
    ["fe80::1", "linkLocal"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback address embedded"],
    ["::ffff:10.0.0.1", "private address embedded"],
    ["::ffff:0:a9fe:a9fe", "linkLocal address embedded"],
    ["64:ff9b::7f00:1", "loopback address embedded in NAT64"],
    ["64:ff9b::a9fe:a9fe", "linkLocal address embedded in NAT64"],
    ["2002:7f00:1::1", "embedded in 6to4"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
    ["::7f00:1", "outside global unicast"],
    ["fec0::1", "deprecatedSiteLocal"],
    ["2001:db8::1", "reserved"],
    ["not-an-ip", "not an IP"],
  ])("blocks %s (%s)", (address, why) => {
    expect(blockedReason(address)).toContain(why);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
    "[2606:4700::1]",
  ])("allows public %s", (address) => {
    expect(blockedReason(address)).toBeNull();
    expect(isPublicAddress(address)).toBe(true);
  });

  it("matches exact addresses and CIDRs for allowed targets", () => {
    expect(matchesAddress("127.0.0.1", "127.0.0.1")).toBe(true);
    expect(matchesAddress("127.0.0.2", "127.0.0.1")).toBe(false);
    expect(matchesAddress("10.1.2.3", "10.0.0.0/8")).toBe(true);
    expect(matchesAddress("11.1.2.3", "10.0.0.0/8")).toBe(false);
    expect(matchesAddress("::ffff:10.1.2.3", "10.0.0.0/8")).toBe(true);
    expect(matchesAddress("::1", "127.0.0.1")).toBe(false);
    expect(matchesAddress("10.0.0.1", "garbage")).toBe(false);
  });
});
