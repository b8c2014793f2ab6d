/**
 * node --import tsx scripts/fake-panel.ts [port] — the tests' fake Pterodactyl panel on 127.0.0.1, for
 * trying provisioning by hand without a panel (docs/provisioning.md): it prints the address and the key
 * to save in /admin/settings/game-panel, and serves until stopped. Installs end after two looks.
 */
import { startFakePanel } from "../tests/support/fake-pterodactyl";

const panel = await startFakePanel({ port: Number(process.argv[2] ?? 0) || undefined });
console.log(`Fake panel at ${panel.url}\nApplication API key: ${panel.apiKey}`);
process.on("SIGINT", () => void panel.close().then(() => process.exit(0)));
