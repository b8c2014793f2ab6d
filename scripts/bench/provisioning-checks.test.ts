import { describe, expect, it } from "vitest";
import {
  checkPanelOutcome,
  keepsMtaRule,
  type CheckedServer,
  type CheckedService,
} from "./provisioning-checks";

const IP = "10.0.9.10";

function single(serviceId: number, serverId: number, allocationId: number, port: number) {
  const service: CheckedService = {
    id: serviceId,
    layout: "single",
    panelState: "ready",
    panelServerId: serverId,
    address: `${IP}:${port}`,
    ports: { game: port },
  };
  const server: CheckedServer = {
    id: serverId,
    externalId: `hf-svc-${serviceId}`,
    allocationId,
    environment: {},
    allocations: [{ id: allocationId, ip: IP, port }],
  };
  return { service, server };
}

function mta(
  serviceId: number,
  serverId: number,
  firstAllocation: number,
  game: number,
  http: number,
) {
  const service: CheckedService = {
    id: serviceId,
    layout: "mta",
    panelState: "ready",
    panelServerId: serverId,
    address: `${IP}:${game}`,
    ports: { game, announce: game + 123, http },
  };
  const server: CheckedServer = {
    id: serverId,
    externalId: `hf-svc-${serviceId}`,
    allocationId: firstAllocation,
    environment: { SERVER_WEBPORT: String(http) },
    allocations: [
      { id: firstAllocation, ip: IP, port: game },
      { id: firstAllocation + 1, ip: IP, port: game + 123 },
      { id: firstAllocation + 2, ip: IP, port: http },
    ],
  };
  return { service, server };
}

const clean = {
  notReady: [],
  madeTwice: [],
  missing: [],
  wrongServer: [],
  portsTwice: [],
  layoutBroken: [],
  recordedWrong: [],
  strayClaims: 0,
  secretsShared: [],
};

function check(
  pairs: { service: CheckedService; server: CheckedServer }[],
  extra: { servers?: CheckedServer[]; claims?: { allocationId: number; serviceId: number }[] } = {},
) {
  return checkPanelOutcome({
    services: pairs.map((pair) => pair.service),
    servers: [...pairs.map((pair) => pair.server), ...(extra.servers ?? [])],
    claims:
      extra.claims ??
      pairs.flatMap((pair) =>
        pair.server.allocations.map((a) => ({ allocationId: a.id, serviceId: pair.service.id })),
      ),
    httpVariable: "SERVER_WEBPORT",
  });
}

describe("checkPanelOutcome", () => {
  it("finds nothing wrong in servers made once each, on their own ports, as recorded", () => {
    expect(check([single(1, 10, 100, 7000), mta(2, 11, 200, 30000, 7001)])).toEqual(clean);
  });

  it("counts a service not ready, one without a server, and one linked to another server", () => {
    const notReady = single(1, 10, 100, 7000);
    notReady.service.panelState = "installing";
    const missing = single(2, 11, 101, 7001);
    missing.service.panelState = "creating";
    const wrong = single(3, 12, 102, 7002);
    wrong.service.panelServerId = 99;
    const outcome = checkPanelOutcome({
      services: [notReady.service, missing.service, wrong.service],
      servers: [notReady.server, wrong.server],
      claims: [],
      httpVariable: "SERVER_WEBPORT",
    });
    expect(outcome.notReady).toEqual([1, 2]);
    expect(outcome.missing).toEqual([2]);
    expect(outcome.wrongServer).toEqual([3]);
  });

  it("counts an external id made twice (compared without case)", () => {
    const pair = single(1, 10, 100, 7000);
    const twin = { ...pair.server, id: 20, externalId: "HF-SVC-1", allocationId: 101 };
    twin.allocations = [{ id: 101, ip: IP, port: 7001 }];
    expect(check([pair], { servers: [twin] }).madeTwice).toEqual(["hf-svc-1"]);
  });

  it("counts a port given twice, on the panel or in our records", () => {
    const a = single(1, 10, 100, 7000);
    const b = single(2, 11, 101, 7001);
    b.service.address = `${IP}:7000`;
    b.service.ports = { game: 7000 };
    const outcome = check([a, b]);
    expect(outcome.portsTwice).toEqual([`${IP}:7000`]);
    expect(outcome.recordedWrong).toEqual([2]);
  });

  it("holds MTA to P, P + 123 and H on one IP, H in the egg's variable", () => {
    const good = mta(1, 10, 100, 30000, 7000);
    expect(keepsMtaRule(good.server, "SERVER_WEBPORT")).toBe(true);
    const otherIp = mta(2, 11, 200, 30001, 7001);
    otherIp.server.allocations = otherIp.server.allocations.map((a, i) =>
      i === 1 ? { ...a, ip: "10.0.9.11" } : a,
    );
    const notPlus123 = mta(3, 12, 300, 30002, 7002);
    notPlus123.server.allocations = notPlus123.server.allocations.map((a, i) =>
      i === 1 ? { ...a, port: 30200 } : a,
    );
    const wrongVariable = mta(4, 13, 400, 30003, 7003);
    wrongVariable.server.environment = { SERVER_WEBPORT: "7999" };
    const two = mta(5, 14, 500, 30004, 7004);
    two.server.allocations = two.server.allocations.slice(0, 2);
    for (const broken of [otherIp, notPlus123, wrongVariable, two])
      expect(keepsMtaRule(broken.server, "SERVER_WEBPORT")).toBe(false);
    expect(check([good, otherIp, notPlus123, wrongVariable, two]).layoutBroken).toEqual([
      2, 3, 4, 5,
    ]);
  });

  it("counts a one-port server with more than one allocation as broken", () => {
    const pair = single(1, 10, 100, 7000);
    pair.server.allocations = [...pair.server.allocations, { id: 101, ip: IP, port: 7001 }];
    expect(check([pair]).layoutBroken).toEqual([1]);
  });

  it("counts claims on ports the claiming service's server does not hold", () => {
    const a = single(1, 10, 100, 7000);
    const outcome = check([a], {
      claims: [
        { allocationId: 100, serviceId: 1 },
        { allocationId: 555, serviceId: 1 },
        { allocationId: 100, serviceId: 9 },
      ],
    });
    expect(outcome.strayClaims).toBe(2);
  });

  it("counts servers without their own value of a variable drawn for each server", () => {
    const drawn = (serviceId: number, serverId: number, port: number, value?: string) => {
      const pair = single(serviceId, serverId, serverId * 10, port);
      pair.service.drawn = ["RCON_PASS"];
      pair.server.environment = value === undefined ? {} : { RCON_PASS: value };
      return pair;
    };
    const own = [drawn(1, 10, 7000, "aB3dE5gH7jK9mN1p"), drawn(2, 11, 7001, "Zx8Cv7Bn6Mq5Wr4T")];
    expect(check(own).secretsShared).toEqual([]);
    const shared = drawn(3, 12, 7002, "aB3dE5gH7jK9mN1p");
    const none = drawn(4, 13, 7003);
    const empty = drawn(5, 14, 7004, "");
    // A plan that draws nothing may give every server the product's value.
    const plain = single(6, 15, 150, 7005);
    plain.server.environment = { RCON_PASS: "aB3dE5gH7jK9mN1p" };
    expect(check([...own, shared, none, empty, plain]).secretsShared).toEqual([1, 3, 4, 5]);
  });
});
