import type { AppServices } from "~/context.server";
import type { DataExportWiring } from "~/domain/data-exports/data-export-jobs.server";
import { documentViewTools } from "~/domain/invoices/invoices";
import { directionOf, isLocale, type Locale } from "~/i18n/locales";
import { sharedI18n } from "~/i18n/shared-i18n.server";

// A customer's data archive on the worker (docs/self-service.md#a-customers-data): its link's token is
// derived with the auth secret, and it is written in the customer's language (their account's, else
// the site's default): the README's words, and the PDFs' as /invoices/:number/pdf draws them.

/** What the archive's job is made with in this process (the registry's `dataExports` wiring). */
export function dataExportWiring(services: AppServices): DataExportWiring {
  return {
    secret: services.env.AUTH_SECRET,
    texts: async (accountLocale) => {
      const { general } = await services.settings.get();
      const locale: Locale = isLocale(accountLocale) ? accountLocale : general.defaultLocale;
      const i18n = await sharedI18n(locale);
      const dashboard = i18n.getFixedT(null, "dashboard");
      const invoices = i18n.getFixedT(null, "invoices");
      const orders = i18n.getFixedT(null, "orders");
      return {
        locale,
        direction: directionOf(locale),
        timeZone: general.timeZone,
        siteName: general.siteName,
        readme: (key, values) => dashboard(key, values),
        documents: documentViewTools({
          t: (key, values) => invoices(key, values),
          tOrders: (key) => orders(key),
          locale,
          timeZone: general.timeZone,
        }),
      };
    },
  };
}
