import type { ReactNode } from "react";
import { Link } from "~/components/ui/link";
import { Card, CardContent } from "./card";
import { cn } from "~/lib/utils";

/** One figure on a dashboard: an icon, what it counts, the figure, and where to go for more. */
export interface Stat {
  icon: ReactNode;
  label: string;
  value: ReactNode;
  /** A card with a link is a way in: the whole card is the link. */
  to?: string;
}

/**
 * A dashboard's row of figures: two a line on a phone, four on a wide screen (five figures: three a line
 * from a tablet, all five on a wide screen, so none stands alone in a row of four). `size` is the figure's:
 * "lg" for the admin's counts, "md" for the customer's amounts, which are written left to right in every
 * language (a price in Arabic keeps its digits and sign in order).
 */
export function StatCards({ stats, size = "lg" }: { stats: Stat[]; size?: "lg" | "md" }) {
  return (
    <div
      className={cn(
        "grid grid-cols-2 gap-3",
        stats.length === 5 ? "sm:grid-cols-3 xl:grid-cols-5" : "lg:grid-cols-4",
      )}
    >
      {stats.map((stat) => (
        <StatCard key={stat.label} stat={stat} size={size} />
      ))}
    </div>
  );
}

function StatCard({ stat, size }: { stat: Stat; size: "lg" | "md" }) {
  const card = (
    <Card className={stat.to ? "transition-shadow hover:shadow-md" : undefined}>
      <CardContent className="flex items-center gap-3 pt-6">
        <span className="rounded-md bg-muted p-2 text-primary [&_svg]:size-5" aria-hidden>
          {stat.icon}
        </span>
        <div>
          <p className="text-xs text-muted-foreground">{stat.label}</p>
          <p
            className={cn(size === "lg" ? "text-2xl" : "text-xl", "font-bold")}
            dir={size === "md" ? "ltr" : undefined}
          >
            {stat.value}
          </p>
        </div>
      </CardContent>
    </Card>
  );
  return stat.to ? (
    <Link to={stat.to} className="block">
      {card}
    </Link>
  ) : (
    card
  );
}
