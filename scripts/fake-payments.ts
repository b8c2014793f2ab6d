/**
 * node --import tsx scripts/fake-payments.ts <site address> — the tests' doubles of PayPal and YouCan Pay
 * on 127.0.0.1, for trying online payments by hand without a provider account (docs/online-payments.md,
 * "Trying it by hand"). It prints each one's API address and keys to save on /admin/gateways, and sends
 * their notifications to `<site address>/hooks/payments/<provider>`; it serves until stopped. Their
 * payment pages have Pay and Cancel (and Decline for YouCan Pay) buttons.
 */
import { startFakePayPal } from "../tests/support/fake-paypal";
import { startFakeYouCanPay } from "../tests/support/fake-youcanpay";

const site = process.argv[2]?.replace(/\/+$/, "");
if (!site || !/^https?:\/\//.test(site)) {
  console.error(
    "Give the site's address: node --import tsx scripts/fake-payments.ts http://localhost:3000",
  );
  process.exit(2);
}
const paypal = await startFakePayPal();
paypal.webhookUrl = `${site}/hooks/payments/paypal`;
const youcan = await startFakeYouCanPay();
youcan.webhookUrl = `${site}/hooks/payments/youcanpay`;
console.log(`PayPal double: API address ${paypal.url}`);
console.log(
  `  client id ${paypal.clientId}\n  secret ${paypal.secret}\n  webhook id ${paypal.webhookId}`,
);
console.log(`YouCan Pay double: API address ${youcan.apiUrl}`);
console.log(`  public key ${youcan.publicKey}\n  private key ${youcan.privateKey}`);
console.log(
  `Both are on 127.0.0.1: turn on "Allow a provider's API address on the local network" in /admin/settings before saving them.`,
);
process.on(
  "SIGINT",
  () => void Promise.all([paypal.close(), youcan.close()]).then(() => process.exit(0)),
);
