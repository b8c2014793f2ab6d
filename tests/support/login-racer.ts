/**
 * Run as its own process by app/domain/accounts/login-throttle.integration.test.ts, as one server process
 * among several (WEB_CONCURRENCY) would: once its connection is open it prints "ready" and waits for a
 * line on stdin (the parent writes one to every racer once all are ready), then fires sign-ins with a
 * wrong password all at once and prints, as JSON, whether each was checked or refused, with when the
 * first was sent and the last answered (process-moments.ts). Anything else (a sign-in that got in, an
 * error) ends it with exit code 1.
 * Arguments: <database url> <password> <sign-in>... where each sign-in is "email address".
 */
import { parseEnv } from "~/config/env.server";
import { createServices } from "~/context.server";
import { signIn } from "~/domain/accounts/accounts.server";
import { goSignal, processMoment, READY_LINE } from "./process-moments";

const [url, password, ...attempts] = process.argv.slice(2);
const services = createServices({
  ...parseEnv({ NODE_ENV: "test", DATABASE_URL: url!, LOG_LEVEL: "silent" }),
  AUTH_SECRET: "test-secret-0123456789abcdef0123456789abcdef",
});
try {
  // Opened before the start, so the race is between sign-ins and not between connections.
  await services.db.selectFrom("users").select("id").limit(1).execute();
  const go = goSignal();
  console.log(READY_LINE);
  await go;
  const sentAt = processMoment();
  const results = await Promise.all(
    attempts.map((attempt) => {
      const [email, ip] = attempt.split(" ");
      return signIn(services, { email: email!, password: password! }, { ip: ip! });
    }),
  );
  const answeredAt = processMoment();
  const outcomes = results.map((result) => {
    if (result.ok) throw new Error("a sign-in with a wrong password got in");
    return result.error === "errors.invalidCredentials" ? "checked" : "refused";
  });
  console.log(JSON.stringify({ outcomes, sentAt, answeredAt }));
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await services.database.destroy();
}
