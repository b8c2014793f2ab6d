import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { ACTIVE_SERVER_COUNTER, nextActiveServerCount } from "~/domain/site/site";
import { intlLocale } from "~/lib/money";

/** Spec section 2: a cosmetic counter that starts at 2458 and grows by 0 to 2 every 5 s. */
export function ActiveServerCounter({ locale }: { locale: string }) {
  const { t } = useTranslation("site");
  const [count, setCount] = useState<number>(ACTIVE_SERVER_COUNTER.start);
  useEffect(() => {
    const timer = setInterval(
      () => setCount((n) => nextActiveServerCount(n)),
      ACTIVE_SERVER_COUNTER.intervalMs,
    );
    return () => clearInterval(timer);
  }, []);
  return (
    <p
      className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm"
      data-testid="active-servers"
    >
      <span className="size-2 rounded-full bg-green-400" aria-hidden />
      {t("home.activeServers", {
        servers: new Intl.NumberFormat(intlLocale(locale), { useGrouping: false }).format(count),
      })}
    </p>
  );
}
