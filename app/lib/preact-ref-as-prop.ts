import { options, type VNode } from "preact";

// React 19 hands a function component its `ref` as a prop (our Button, the dropdown's trigger through
// Slot, ...). Preact 10 keeps it on the vnode and points it at the component instance (the phone menu's
// code then called .closest on that instance). Moved into props for every function component, as
// preact/compat does for forwardRef and as Preact 11 does for all (ADR 42). Imported first by
// entry.client.tsx, the browser's only entry that renders with Preact.
type Hook = (vnode: VNode) => void;
const hooks = options as unknown as { vnode?: Hook };
const previous = hooks.vnode;
hooks.vnode = (vnode) => {
  const type = vnode.type as unknown;
  const node = vnode as unknown as { ref: unknown; props: Record<string, unknown> };
  if (
    typeof type === "function" &&
    node.ref &&
    !(type.prototype && typeof (type.prototype as { render?: unknown }).render === "function")
  ) {
    node.props.ref = node.ref;
    node.ref = null;
  }
  previous?.(vnode);
};
