import { DownloadIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "~/components/ui/button";

/** A page's title and its one-line introduction; `children` adds lines under them (a count, a period). */
export function PageHeading({
  title,
  intro,
  children,
}: {
  title: string;
  intro: string;
  children?: ReactNode;
}) {
  return (
    <div className="grid gap-1">
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="text-sm text-muted-foreground">{intro}</p>
      {children}
    </div>
  );
}

/** The button that downloads a file from a resource route: a page's list as CSV, a document as PDF. */
export function DownloadLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Button asChild variant="outline">
      {/* A plain link: the file comes from a resource route, not a page. */}
      <a href={href} download>
        <DownloadIcon aria-hidden />
        {children}
      </a>
    </Button>
  );
}
