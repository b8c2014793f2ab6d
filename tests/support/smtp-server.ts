import type { AddressInfo, Socket } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerSession } from "smtp-server";

// A real SMTP server in the test process (the `smtp-server` package on a loopback port), so the
// outbox's worker sends through nodemailer's real transport; each message is parsed with `mailparser`.
// By default plain SMTP; with a certificate it offers STARTTLS and takes a password only once the
// connection is encrypted, or speaks TLS from the first byte (smtps://).
// It can fail on purpose: refuse the next messages with a 4xx or 5xx answer, or take one and drop the
// connection before answering (the "lost answer" a retry must make recognisable by its Message-ID).

export interface ReceivedMail {
  /** The envelope's sender and recipients, as the client gave them. */
  from: string;
  to: string[];
  parsed: ParsedMail;
  messageId: string | undefined;
  subject: string | undefined;
  html: string | false;
  text: string | undefined;
  /** Whether the message came over an encrypted connection (STARTTLS or smtps://). */
  secure: boolean;
}

type Failure = { code: number; message: string } | "drop";

export interface TestSmtpServer {
  /** SMTP_URL for the worker: smtp://user:password@127.0.0.1:port. */
  url: string;
  /** Every message taken (a dropped one too: the server had it before the connection went). */
  received: ReceivedMail[];
  /** The next messages are answered with these failures, in order, then accepted. */
  failNext(...failures: Failure[]): void;
  /** Forgets what was received and any failure still scripted. */
  reset(): void;
  close(): Promise<void>;
}

export const SMTP_USER = "outbox";
export const SMTP_PASSWORD = "s3cret-pass";

export interface SmtpServerOptions {
  /**
   * "starttls": plain at first, offering STARTTLS, a password taken only after it; "smtps": TLS from
   * the first byte. Both with this certificate (tests/support/throwaway-certificate.ts).
   */
  tls?: { mode: "starttls" | "smtps"; key: string; cert: string };
}

export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const failures: Failure[] = [];
  const connections = new Set<Socket>();
  const { tls } = options;
  const server = new SMTPServer({
    ...(tls
      ? {
          key: tls.key,
          cert: tls.cert,
          secure: tls.mode === "smtps",
          // The password only over an encrypted connection: a client that skipped STARTTLS fails.
          allowInsecureAuth: false,
        }
      : {
          // Plain SMTP on loopback: no STARTTLS, and the password accepted without TLS, so the
          // credentials of SMTP_URL are really used.
          disabledCommands: ["STARTTLS"],
          allowInsecureAuth: true,
        }),
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD)
        return callback(null, { user: auth.username });
      return callback(
        Object.assign(new Error("Invalid username or password"), { responseCode: 535 }),
      );
    },
    onData(stream, session: SMTPServerSession, callback) {
      const failure = failures.shift();
      simpleParser(stream)
        .then((parsed) => {
          if (failure && failure !== "drop") {
            callback(Object.assign(new Error(failure.message), { responseCode: failure.code }));
            return;
          }
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            parsed,
            messageId: parsed.messageId,
            subject: parsed.subject,
            html: parsed.html ?? false,
            text: parsed.text,
            secure: session.secure,
          });
          if (failure === "drop") {
            // Taken, but the answer never reaches the client.
            for (const socket of connections) socket.destroy();
            return;
          }
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  // A client that gives up on a connection (a certificate it will not trust) is the client's story:
  // the server goes on, as a real one does, instead of raising the error in the test process.
  server.on("error", () => {});
  server.server.on("connection", (socket: Socket) => {
    connections.add(socket);
    socket.on("close", () => connections.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `${tls?.mode === "smtps" ? "smtps" : "smtp"}://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    received,
    failNext: (...next) => void failures.push(...next),
    reset: () => {
      received.length = 0;
      failures.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of connections) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
