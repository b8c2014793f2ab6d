/**
 * Run as its own process by app/db/processes.integration.test.ts, as one server process among several
 * (WEB_CONCURRENCY) would: once its connection is open it prints "ready" and waits for a line on stdin
 * (the parent writes one to every writer once all are ready), then credits one customer a cent at a time
 * through the ledger, `count` times, and prints as JSON when its first credit began and its last ended
 * (process-moments.ts). Any error ends it with exit code 1.
 * Arguments: <database url> <user id> <actor id> <count>
 */
import { createDatabase } from "~/db/database.server";
import { adjustCoins } from "~/domain/coins/coins.server";
import { goSignal, processMoment, READY_LINE } from "./process-moments";

const [url, userId, actorId, count] = process.argv.slice(2);
const database = createDatabase(url!);
try {
  await database.db.selectFrom("users").select("id").limit(1).execute();
  const go = goSignal();
  console.log(READY_LINE);
  await go;
  const first = processMoment();
  for (let credit = 0; credit < Number(count); credit++) {
    const result = await adjustCoins(database.db, {
      userId: userId!,
      amountCents: 1,
      reason: "concurrent credit",
      actorId: actorId!,
    });
    if (!result.ok) throw new Error(`refused: ${result.error}`);
    // A server process writes between other work, not back to back: a loop that takes the write lock
    // again the moment it commits starves the other process, whose SQLite busy handler sleeps between
    // tries (it once made 1 credit in 2 s on a slow disk), which no server would do.
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  console.log(JSON.stringify({ first, last: processMoment() }));
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await database.destroy();
}
