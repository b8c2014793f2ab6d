import { z } from "~/lib/zod";
import { readCookie } from "~/lib/cookies";

const TOAST_COOKIE = "hostfront_toast";

// Only known messages can be flashed, so a forged cookie cannot put arbitrary text on the page.
export const toastKeys = [
  "toast.loggedOut",
  "toast.loginSuccess",
  "toast.adminLoginSuccess",
  "toast.registered",
  "toast.registeredVerify",
  "toast.emailVerified",
  "toast.passwordChanged",
  "toast.orderSubmitted",
  "toast.orderApprovedAutomatically",
  "toast.serviceRenewed",
  "toast.planUpgraded",
  "toast.planDowngraded",
  "toast.replySent",
  "toast.autoRenewOn",
  "toast.autoRenewOff",
  "toast.twoFactorRequired",
  "toast.providerSaved",
  "toast.refundAsked",
  "toast.viewAsRefused",
] as const;

const toastSchema = z.object({
  key: z.enum(toastKeys),
  type: z.enum(["success", "error", "info"]).default("success"),
});

export type Toast = z.infer<typeof toastSchema>;

/** A Set-Cookie value that shows `toast` on the next page the browser renders. */
export function flashToast(toast: Toast): string {
  return `${TOAST_COOKIE}=${encodeURIComponent(JSON.stringify(toast))}; Path=/; HttpOnly; SameSite=Lax; Max-Age=60`;
}

export function readToast(cookieHeader: string | null): {
  toast: Toast | null;
  clear: string | null;
} {
  const raw = readCookie(cookieHeader, TOAST_COOKIE);
  if (!raw) return { toast: null, clear: null };
  const clear = `${TOAST_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
  try {
    const parsed = toastSchema.safeParse(JSON.parse(raw));
    return { toast: parsed.success ? parsed.data : null, clear };
  } catch {
    return { toast: null, clear };
  }
}

export function headersWithCookies(cookies: string[]): Headers {
  const headers = new Headers();
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return headers;
}
