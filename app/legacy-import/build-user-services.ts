import { firstOwnedById, ownedFields, type Building } from "./build-context";
import { readLegacyDate } from "./field-loose";
import { legacyServiceStatus } from "./map-values";
import type { RawUserService } from "./schema-records";

/** User services (hosting services), by old id, pointing at their user and service by the old ids. */
export function buildUserServices(b: Building) {
  for (const entry of firstOwnedById<RawUserService>(b, "userServices", "service")) {
    const service = entry.record;
    b.data.userServices.push({
      ...ownedFields(entry, legacyServiceStatus(service.status)),
      createdAt: readLegacyDate(service.createdAt),
      expiresAt: readLegacyDate(service.expiresAt),
    });
  }
}
