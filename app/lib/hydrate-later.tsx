import type { ReactNode } from "react";
import { ClientSuspense } from "./client-suspense";
import { use } from "./use-shim";

/*
 * Preact hydrates a page in one task (ADR 42): on a slow phone, one long block before a tap is answered
 * (Lighthouse's TBT). A piece wrapped here is left as the server wrote it during that task and hydrated
 * in a task of its own right after, one piece a task: Preact keeps a component's server DOM when it
 * suspends while hydrating, and hydrates it when it renders again. Only the first hydration is split;
 * later renders (a link followed) render at once. The piece must render exactly one element, which is
 * the DOM Preact keeps for it.
 *
 * Each piece has a boundary of its own: a Preact <Suspense> renders its children again only once all
 * of them have resumed, so pieces sharing one boundary were hydrated together, in one long task.
 */

let hydrating = typeof document !== "undefined";
let chain: Promise<void> = Promise.resolve();
const turns = new Map<string, Promise<void>>();

/** A promise settled in a task after the previous piece's (a timer task: the browser paints between). */
function nextTurn(): Promise<void> {
  const turn = chain.then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  chain = turn;
  return turn;
}

/** Settles once every piece of the first hydration has been hydrated (their renders run in microtasks). */
export async function afterLaterPieces(): Promise<void> {
  // Pieces inside a piece take their turn when the piece around them renders: wait until none is added.
  let last: Promise<void>;
  do {
    last = chain;
    await last;
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
  } while (last !== chain);
  hydrating = false;
}

function AfterItsTurn({ piece, children }: { piece: string; children: ReactNode }) {
  if (!hydrating) return children;
  let turn = turns.get(piece);
  if (!turn) {
    turn = nextTurn();
    turns.set(piece, turn);
  }
  use(turn);
  return children;
}

export function HydrateLater({ piece, children }: { piece: string; children: ReactNode }) {
  // The boundary is there on every render in the browser, not only the first: a tree whose shape changed
  // once hydrated would make the piece's DOM again.
  return (
    <ClientSuspense>
      <AfterItsTurn piece={piece}>{children}</AfterItsTurn>
    </ClientSuspense>
  );
}
