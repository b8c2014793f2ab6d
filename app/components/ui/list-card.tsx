import type { ReactNode } from "react";
import { TitledCard } from "./card";

/**
 * A titled card holding a list: each of `items` drawn by `children` as its `<li>` (keyed by the caller),
 * inside a `<ul>` with `className`; with no items, the card says `empty` instead (TitledCard's muted line).
 */
export function ListCard<Item>({
  title,
  items,
  empty,
  className,
  children,
}: {
  title: ReactNode;
  items: readonly Item[];
  empty: ReactNode;
  className?: string;
  children: (item: Item, index: number) => ReactNode;
}) {
  return (
    <TitledCard title={title} empty={items.length === 0 ? empty : undefined}>
      <ul className={className}>{items.map(children)}</ul>
    </TitledCard>
  );
}
