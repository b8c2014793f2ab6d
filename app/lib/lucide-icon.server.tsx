import {
  createElement,
  forwardRef,
  type ForwardRefExoticComponent,
  type ReactElement,
  type Ref,
  type RefAttributes,
} from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Icon, useLucideContext, type LucideProps } from "lucide-react";

/**
 * lucide-react's `Icon` for the server build (vite.config.ts swaps it in for the icons' own, on the server
 * only; the browser keeps lucide's). lucide builds an icon's attributes and its paths' elements afresh on
 * every render (class names merged, attribute names mapped, each path an element): about 20 µs an icon,
 * some thirty icons on a signed-in page. Here an icon drawn with the same props and the same
 * LucideProvider values is drawn once, by lucide's own `Icon`, and kept: its attributes, and its paths as
 * markup the <svg> holds as is. What cannot be a key (a child element, a handler, a style object) is
 * drawn by lucide's `Icon` every time. lucide-icon.server.test.tsx compares the markup with lucide's for every icon
 * the app uses and many sets of props.
 */

type IconProps = LucideProps & {
  icon?: object;
  iconNode?: unknown;
};

interface Drawn {
  type: string;
  props: Record<string, unknown>;
  inner: string;
}

// lucide's Icon, typed with the icon data its icons hand it (its own types leave that out).
const LucideIcon = Icon as unknown as ForwardRefExoticComponent<
  IconProps & RefAttributes<SVGSVGElement>
>;

// Per icon (its data object, made once by lucide), per props and provider values.
const drawnIcons = new WeakMap<object, Map<string, Drawn>>();
const KEYS_PER_ICON = 64;
// Read when an icon is drawn, not when this module loads: lucide's entry imports the icons, whose module
// imports this one, so `Icon` is not yet defined while this module runs.
const renderIcon = (props: IconProps) =>
  (Icon as unknown as { render: (props: IconProps, ref: unknown) => ReactElement }).render(
    props,
    null,
  );

function keyOf(props: IconProps, context: object | undefined): string | null {
  let key = "";
  for (const [name, value] of Object.entries(props)) {
    if (name === "icon") continue;
    const kind = typeof value;
    if (value !== undefined && kind !== "string" && kind !== "number" && kind !== "boolean")
      return null;
    key += `${name}\u0000${String(value)}\u0000${kind}\u0001`;
  }
  for (const [name, value] of Object.entries(context ?? {})) {
    if (value === undefined) continue;
    if (typeof value === "object" || typeof value === "function") return null;
    key += `@${name}\u0000${String(value)}\u0001`;
  }
  return key;
}

function draw(props: IconProps): Drawn {
  const element = renderIcon(props) as ReactElement<Record<string, unknown>>;
  const { children, ref: _ref, ...attributes } = element.props;
  const svg = renderToStaticMarkup(createElement("svg", null, children as ReactElement[]));
  return {
    type: element.type as string,
    props: attributes,
    inner: svg.slice("<svg>".length, -"</svg>".length),
  };
}

export const ServerIcon: ForwardRefExoticComponent<IconProps & RefAttributes<SVGSVGElement>> =
  forwardRef(function ServerIcon(props: IconProps, ref: Ref<SVGSVGElement>) {
    const context = useLucideContext();
    const key = props.icon ? keyOf(props, context) : null;
    if (key === null) return createElement(LucideIcon, { ...props, ref });
    let drawn = drawnIcons.get(props.icon!);
    if (!drawn) drawnIcons.set(props.icon!, (drawn = new Map()));
    let entry = drawn.get(key);
    if (!entry) {
      // An icon drawn with ever new props (a class made per row) would keep growing its list.
      if (drawn.size >= KEYS_PER_ICON) drawn.clear();
      entry = draw(props);
      drawn.set(key, entry);
    }
    return createElement(entry.type, {
      ...entry.props,
      ref,
      dangerouslySetInnerHTML: { __html: entry.inner },
    });
  });

export default ServerIcon;
