/**
 * SMTP_URL and MAIL_FROM (docs/mail.md), read at start with the other settings: a wrong value stops the
 * server with a message that says what is wrong, never at the first message the worker sends.
 */

export type SettingResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** An address alone: one @, no spaces or angle brackets, a dot-free local host allowed (localhost). */
const ADDRESS = /^[^\s@<>"]+@[^\s@<>"]+$/;

/**
 * Reads SMTP_URL: smtp:// (STARTTLS when the server offers it) or smtps:// (TLS from the start), a host,
 * an optional port, and the credentials as user:password (percent-encoded). A user without a password
 * (or the reverse) is refused: it is always a mistake in the URL, never a server that wants it so.
 */
export function parseSmtpUrl(value: string): SettingResult<string> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, message: "must be a URL like smtps://user:password@smtp.example.com:465" };
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:")
    return { ok: false, message: "must start with smtp:// or smtps://" };
  if (!url.hostname) return { ok: false, message: "must name the SMTP server's host" };
  if (Boolean(url.username) !== Boolean(url.password))
    return {
      ok: false,
      message: "must give both a user and a password (smtp://user:password@host), or neither",
    };
  if (url.pathname && url.pathname !== "/")
    return { ok: false, message: "must have no path after the host and port" };
  return { ok: true, value };
}

/** Reads MAIL_FROM: an address, or a name and an address ("Hostfront <no-reply@example.com>"). */
export function parseMailFrom(value: string): SettingResult<string> {
  const trimmed = value.trim();
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(trimmed);
  const address = named ? named[2]!.trim() : trimmed;
  if (!ADDRESS.test(address))
    return {
      ok: false,
      message:
        "must be an address (no-reply@example.com) or a name and one (Hostfront <no-reply@example.com>)",
    };
  return { ok: true, value: trimmed };
}

/** The sender when MAIL_FROM is unset: no-reply at the public address's host. */
export function defaultMailFrom(publicUrl: string): string {
  return `Hostfront <no-reply@${new URL(publicUrl).hostname}>`;
}

/** The address part of a From ("Name <a@b>" gives a@b): the domain of the Message-IDs. */
export function addressOf(from: string): string {
  const named = /<([^<>]+)>\s*$/.exec(from);
  return (named ? named[1]! : from).trim();
}
