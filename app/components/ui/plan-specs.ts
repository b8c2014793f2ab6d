import { useTranslation } from "~/i18n/use-translation";
import type { Product } from "~/domain/catalogue/catalogue";

/**
 * A plan's specs as its card lists them, in the reader's language and units ("2 Go de RAM" in French,
 * "ذاكرة RAM بسعة 2 غيغابايت" in Arabic): slots, memory, cores, storage, each only when the plan has it.
 * The plan cards and the order form's summary say them alike (common: the order form carries no
 * public page's catalogue).
 */
export function usePlanSpecs() {
  const { t } = useTranslation("common");
  return (specs: Product["specs"]): string[] =>
    [
      specs.slots ? t("planSpecs.slots", { count: specs.slots }) : null,
      specs.ramGb ? t("planSpecs.ram", { count: specs.ramGb }) : null,
      specs.cpuCores ? t("planSpecs.cpu", { count: specs.cpuCores }) : null,
      specs.storageGb ? t("planSpecs.storage", { count: specs.storageGb }) : null,
    ].filter((spec): spec is string => Boolean(spec));
}
