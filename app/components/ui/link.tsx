/* eslint-disable @typescript-eslint/no-restricted-imports -- the kit's links are React Router's own, lighter on the server */
import { useContext, type Ref } from "react";
import {
  Link as RouterLink,
  NavLink as RouterNavLink,
  UNSAFE_NavigationContext,
  useLocation,
  type LinkProps,
  type NavLinkProps,
} from "react-router";

/**
 * The app's links: React Router's `Link` and `NavLink` in the browser, and on the server a version that
 * writes the same markup without resolving the path through the router. React Router's `Link`
 * resolves its target against the page's route matches on every render (a JSON round trip of the matches'
 * paths, three times over for a `NavLink`): some 10 µs a link, a few hundred per signed-in page, for an
 * absolute path that resolves to itself. Anything but such a path goes to React Router's own, and
 * link.test.tsx renders both for every kind of target and compares the markup.
 */
export const Link: typeof RouterLink = import.meta.env.SSR
  ? (ServerLink as typeof RouterLink)
  : RouterLink;
export const NavLink: typeof RouterNavLink = import.meta.env.SSR
  ? (ServerNavLink as typeof RouterNavLink)
  : RouterNavLink;

// Segments of what a URL path keeps as it is (no "/", "?", "#", backslash, space or quote), one slash
// apart, an optional trailing slash, then a query and a fragment that are not empty.
const PLAIN_PATH =
  /^\/(?:[\w\-.~%:@!$&'()*+,;=]+(?:\/[\w\-.~%:@!$&'()*+,;=]+)*\/?)?(?:\?[^#\s]+)?(?:#\S+)?$/;

/**
 * Whether React Router writes `to` into the href unchanged: an absolute path, without "." or ".."
 * segments, a doubled slash, a backslash or an empty "?" or "#" (each of which it rewrites).
 */
export function plainPath(to: LinkProps["to"]): to is string {
  if (typeof to !== "string" || !PLAIN_PATH.test(to)) return false;
  const path = to.replace(/[?#].*$/, "");
  return !path.split("/").some((segment) => segment === "." || segment === "..");
}

function useRootBasename(): boolean {
  return useContext(UNSAFE_NavigationContext).basename === "/";
}

/** React Router's `Link` as the server writes it, for a plain path; any other link is React Router's. */
export function ServerLink(props: LinkProps & { ref?: Ref<HTMLAnchorElement> }) {
  const rootBasename = useRootBasename();
  const {
    to,
    discover = "render",
    prefetch = "none",
    relative,
    reloadDocument,
    mask,
    target,
    // What only a click uses: nothing of it is written into the page.
    onClick: _onClick,
    replace: _replace,
    state: _state,
    preventScrollReset: _preventScrollReset,
    viewTransition: _viewTransition,
    defaultShouldRevalidate: _defaultShouldRevalidate,
    ...anchor
  } = props;
  if (!rootBasename || !plainPath(to) || prefetch !== "none" || relative || reloadDocument || mask)
    return <RouterLink {...props} />;
  return (
    <a
      {...anchor}
      href={to}
      target={target}
      data-discover={discover === "render" ? "true" : undefined}
    />
  );
}

/**
 * React Router's `NavLink` as the server writes it, for a plain path: active when the page's path is its
 * path or under it (`end` for exactly it), nothing pending and no view transition on the server.
 */
export function ServerNavLink(props: NavLinkProps & { ref?: Ref<HTMLAnchorElement> }) {
  const rootBasename = useRootBasename();
  const location = useLocation();
  const {
    "aria-current": ariaCurrentProp = "page",
    caseSensitive = false,
    className: classNameProp = "",
    end = false,
    style: styleProp,
    to,
    viewTransition,
    children,
    ...rest
  } = props;
  if (!rootBasename || !plainPath(to) || viewTransition || rest.relative)
    return <RouterNavLink {...props} />;
  let toPathname = to.replace(/[?#].*$/, "");
  let locationPathname = location.pathname;
  if (!caseSensitive) {
    toPathname = toPathname.toLowerCase();
    locationPathname = locationPathname.toLowerCase();
  }
  const endSlash =
    toPathname !== "/" && toPathname.endsWith("/") ? toPathname.length - 1 : toPathname.length;
  const isActive =
    locationPathname === toPathname ||
    (!end && locationPathname.startsWith(toPathname) && locationPathname.charAt(endSlash) === "/");
  const state = { isActive, isPending: false, isTransitioning: false };
  const className =
    typeof classNameProp === "function"
      ? classNameProp(state)
      : [classNameProp, isActive ? "active" : null].filter(Boolean).join(" ");
  const style = typeof styleProp === "function" ? styleProp(state) : styleProp;
  return (
    <ServerLink
      {...rest}
      aria-current={isActive ? ariaCurrentProp : undefined}
      className={className}
      style={style}
      to={to}
    >
      {typeof children === "function" ? children(state) : children}
    </ServerLink>
  );
}
