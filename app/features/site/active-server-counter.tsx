import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import {
  ACTIVE_SERVER_COUNTER,
  activeServersNumber,
  nextActiveServerCount,
} from "~/domain/site/site";
import { fillPlaceholders, placeholder } from "~/lib/placeholders";

/**
 * Spec section 2: a cosmetic counter that starts at 2458 and grows by 0 to 2 every 5 s. On a hydrated page
 * React counts; on a page served without React the enhance script does (active-server-counter-view.ts),
 * from the sentence with its {{servers}} left in (data-active-servers) and the language (data-locale).
 */
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
  const text = t("home.activeServers", { servers: placeholder("servers") });
  return (
    <p
      className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm"
      data-testid="active-servers"
    >
      <span className="size-2 rounded-full bg-green-400" aria-hidden />
      <span data-active-servers={text} data-locale={locale}>
        {fillPlaceholders(text, { servers: activeServersNumber(count, locale) })}
      </span>
    </p>
  );
}
