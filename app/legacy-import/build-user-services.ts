import { firstById, type Building } from "./build-context";
import { readLegacyDate } from "./field-loose";
import { legacyServiceStatus } from "./map-values";
import type { RawUserService } from "./schema-records";

/** User services (hosting services), by old id, pointing at their user and service by the old ids. */
export function buildUserServices(b: Building) {
  const label = (service: RawUserService) =>
    service.serviceName ?? (service.id ? `service ${service.id}` : "service");
  for (const { ref, key, record: service } of firstById(b, "userServices", label)) {
    const status = legacyServiceStatus(service.status);
    b.data.userServices.push({
      ref,
      key,
      userId: service.userId,
      serviceId: service.serviceId,
      serviceName: service.serviceName,
      status: status.status,
      unknownStatus: status.unknown,
      priceCents: service.price,
      createdAt: readLegacyDate(service.createdAt),
      expiresAt: readLegacyDate(service.expiresAt),
    });
  }
}
