import { slugWords } from "~/domain/catalogue/catalogue-admin";
import { keepFirst, type Building } from "./build-context";
import { MAX_DESCRIPTION_LENGTH } from "./collections";
import { isPlainObject } from "./field-basics";
import { readLegacyDate, readStringList, wholeSpec } from "./field-loose";
import { recordsOf, type SourcedRecord } from "./file-sources";
import { legacyProductType } from "./map-products";
import { lower } from "./map-values";
import type { RawService } from "./schema-records";

/** Services (catalogue products), by old id, or by name when they have none. */
export function buildServices(b: Building) {
  const services = new Map<string, SourcedRecord<RawService>>();
  for (const entry of recordsOf<RawService>(b.sources, "services")) {
    const service = entry.record;
    const slug = slugWords(service.name);
    const key = service.id ?? `name:${slug || service.name}`;
    if (!keepFirst(b, "services", services, entry, key, service.name)) continue;
    const specs = isPlainObject(service.specs) ? service.specs : {};
    const type = legacyProductType(service.type, service.category, service.name);
    b.data.services.push({
      ref: entry.ref,
      key,
      name: service.name.slice(0, 100),
      slug: slug || `legacy-service-${slugWords(key) || b.data.services.length + 1}`,
      description: (service.description ?? "").slice(0, MAX_DESCRIPTION_LENGTH),
      priceCents: service.price!,
      features: readStringList(service.features),
      type,
      status: !service.status || lower(service.status) === "active" ? "active" : "hidden",
      createdAt: readLegacyDate(service.createdAt),
      specs: {
        ramGb: wholeSpec(specs.ram),
        storageGb: wholeSpec(specs.storage),
        cpuCores: wholeSpec(specs.cpu),
        slots: type === "vps" ? null : wholeSpec(specs.slots),
      },
    });
  }
}
