import "react";

// Attributes of HTML that React 19's types do not list yet; React writes a lowercase attribute it does not
// know as it is given, on the server and in the browser. A button opens or closes a <dialog> with them
// before the page's scripts have run (dialog.tsx), and a dialog closes on a tap outside it with `closedby`.
declare module "react" {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- merged with React's own, whose parameter it repeats
  interface ButtonHTMLAttributes<T> {
    /** The id of the element the button acts on (invoker commands: Chrome 135, Firefox 144, Safari 26.2). */
    commandfor?: string | undefined;
    /** What it does to that element: `show-modal` and `close` for a dialog. */
    command?: "show-modal" | "close" | "request-close" | undefined;
  }
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- merged with React's own, whose parameter it repeats
  interface DialogHTMLAttributes<T> {
    /** What closes the dialog without a script: `any` adds a tap outside it to Escape. */
    closedby?: "any" | "closerequest" | "none" | undefined;
  }
}
