/**
 * node --import tsx scripts/fake-panel.ts [port] [--fail-every N] — the tests' fake Pterodactyl panel on
 * 127.0.0.1, for trying provisioning by hand without a panel (docs/provisioning.md, "Trying it by hand"):
 * it prints the address and the key to save in /admin/settings/game-panel, and serves until stopped.
 * Installs end after two looks. With --fail-every N, every N-th request fails, in turn a 500, an answer
 * lost after the change was made, a 429 (Retry-After 1 s) and the connection cut, as the provisioning
 * benchmark's failing round does: to see the retries as admins and customers see them.
 */
import { startFakePanel } from "../tests/support/fake-pterodactyl";

const args = process.argv.slice(2);
const flag = args.indexOf("--fail-every");
const failEvery = flag === -1 ? 0 : Number(args[flag + 1]);
if (flag !== -1 && !(Number.isInteger(failEvery) && failEvery >= 1)) {
  console.error("--fail-every needs a whole number of at least 1");
  process.exit(2);
}
const port = args.find((arg, index) => /^\d+$/.test(arg) && (flag === -1 || index !== flag + 1));

const panel = await startFakePanel({ port: Number(port ?? 0) || undefined });
if (failEvery) panel.failEvery(failEvery, ["500", "lost", "429", "down"]);
console.log(
  `Fake panel at ${panel.url}\nApplication API key: ${panel.apiKey}\nClient API key: ${panel.clientApiKey}`,
);
console.log(
  'It is on 127.0.0.1: turn on "Allow a game panel on the local network" on the page before saving it.',
);
if (failEvery)
  console.log(
    `One request in ${failEvery} fails (a 500, a lost answer, a 429, a cut connection, in turn).`,
  );
process.on("SIGINT", () => void panel.close().then(() => process.exit(0)));
