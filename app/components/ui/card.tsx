import type { ComponentProps, ReactNode } from "react";
import { cn } from "~/lib/utils";

export function Card({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("rounded-xl border bg-background shadow-sm", className)} {...props} />;
}

export function CardHeader({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("flex flex-col gap-1.5 p-6", className)} {...props} />;
}

export function CardTitle({ className, ...props }: ComponentProps<"h2">) {
  return <h2 className={cn("text-xl font-semibold", className)} {...props} />;
}

export function CardDescription({ className, ...props }: ComponentProps<"p">) {
  return <p className={cn("text-sm text-muted-foreground", className)} {...props} />;
}

export function CardContent({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("p-6 pt-0", className)} {...props} />;
}

/**
 * A card with a title over its content (`contentClassName` lays the content out). With `empty`, what to
 * say when there is nothing to show, the content is that one muted line instead of `children`.
 */
export function TitledCard({
  title,
  empty,
  contentClassName,
  children,
}: {
  title: ReactNode;
  empty?: ReactNode;
  contentClassName?: string;
  children?: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className={contentClassName}>
        {empty ? <p className="text-muted-foreground">{empty}</p> : children}
      </CardContent>
    </Card>
  );
}
