/**
 * Run as its own process by app/db/processes.integration.test.ts, as one server process among several
 * (WEB_CONCURRENCY) would: from a given moment, credits one customer a cent at a time through the ledger
 * for a given time, then prints how many credits it made. Any error ends it with exit code 1.
 * Arguments: <database url> <user id> <actor id> <start, epoch ms> <duration ms>
 */
import { createDatabase } from "~/db/database.server";
import { adjustCoins } from "~/domain/coins/coins.server";

const [url, userId, actorId, start, duration] = process.argv.slice(2);
const database = createDatabase(url!);
let credits = 0;
try {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(start) - Date.now())));
  const end = Date.now() + Number(duration);
  while (Date.now() < end) {
    const result = await adjustCoins(database.db, {
      userId: userId!,
      amountCents: 1,
      reason: "concurrent credit",
      actorId: actorId!,
    });
    if (!result.ok) throw new Error(`refused: ${result.error}`);
    credits++;
    // A server process writes between other work, not back to back: a loop that takes the write lock
    // again the moment it commits starves the other process, whose SQLite busy handler sleeps between
    // tries (it once made 1 credit in 2 s on a slow disk), which no server would do.
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  console.log(String(credits));
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await database.destroy();
}
