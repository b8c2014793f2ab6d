/**
 * npm run bench:proofs — the memory a server process takes while customers send their proofs of payment.
 * One server process (WEB_CONCURRENCY=1, production's command) on a fresh SQLite database; three signed-in
 * customers, each with an open top-up request, post "I have paid" at the same moment, each with the
 * costliest files allowed: a phone's photo turned by its EXIF orientation and a screenshot at 16
 * megapixels, a WebP at 5 (each type's pixel ceiling), each close to 5 MiB or under it (the size
 * ceiling). The resident memory of the server's process tree is read every PROOFS_SAMPLE_MS (20 ms) from
 * before the posts until the last answer, the process having idled PROOFS_SETTLE_MS (30 s) first, and
 * once more that long after the round.
 *
 * Budget: the highest reading stays within the process's 200 MB budget plus 100 MB (docs/performance.md);
 * every post answered 200 with its three files stored, each with its preview; no error. Each post is sent PROOFS_ROUNDS times (2),
 * to new requests, so that a second round shows what the first left behind.
 */
import path from "node:path";
import sharp from "sharp";
import {
  listPaymentMethodsForAdmin,
  updatePaymentMethod,
} from "../../app/domain/payments/payment-methods.server";
import { requestTopUp } from "../../app/domain/payments/top-up-requests.server";
import {
  MAX_PROOF_BYTES,
  MAX_PROOF_PIXELS,
  MAX_PROOFS_PER_TOP_UP,
  MAX_WEBP_PROOF_PIXELS,
} from "../../app/domain/payments/top-up-proofs";
import { freePort } from "../../tests/support/postgres-cluster";
import { describeCpu, probeCpu } from "./cpu-probe";
import {
  atMost,
  BROWSER_HEADERS,
  benchServices,
  treeMemoryMb,
  createCustomers,
  ensureBuild,
  none,
  passes,
  printTable,
  QUICK,
  reportVerdicts,
  startServer,
  warmUp,
  type Verdict,
} from "./lib";

const ROUNDS = QUICK ? 1 : Number(process.env.PROOFS_ROUNDS ?? 2);
const SAMPLE_MS = Number(process.env.PROOFS_SAMPLE_MS ?? 20);
/**
 * How long the server idles after the warm-up and after each round, as bench:runtime lets it: V8 gives
 * back what a burst's garbage took once the process is idle, so the figure before a round is the
 * process's settled memory (what its 200 MB budget applies to), not the warm-up's garbage.
 */
const SETTLE_MS = QUICK ? 3_000 : Number(process.env.PROOFS_SETTLE_MS ?? 30_000);
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
const CUSTOMERS = 3;
/** The server process's budget (bench:runtime), and what a burst of proofs may add to it. */
const RSS_BUDGET_MB = 200;
const BURST_ALLOWANCE_MB = 100;
/** 5000 × 3200: the pixel ceiling of a JPEG or a PNG (16 megapixels) exactly. */
const WIDTH = 5000;
const HEIGHT = Math.floor(MAX_PROOF_PIXELS / WIDTH);
/** 2500 × 2000: a WebP's ceiling (5 megapixels) exactly. */
const WEBP_WIDTH = 2500;
const WEBP_HEIGHT = Math.floor(MAX_WEBP_PROOF_PIXELS / WEBP_WIDTH);

/** Noise of `width` × `height` (RGB), its own for each `seed`, so that no two posts send the same file. */
function noise(width: number, height: number, seed: number) {
  const bytes = Buffer.alloc(width * height * 3);
  let state = seed * 2_654_435_761 + 1;
  for (let i = 0; i < bytes.length; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    bytes[i] = state & 0xff;
  }
  return sharp(bytes, { raw: { width, height, channels: 3 } });
}

/** The highest quality of `write` whose file is within MAX_PROOF_BYTES. */
async function underTheSizeCeiling(write: (quality: number) => Promise<Buffer>): Promise<Buffer> {
  for (const quality of [98, 95, 92, 90, 85, 80, 75, 70, 60, 50]) {
    const bytes = await write(quality);
    if (bytes.length <= MAX_PROOF_BYTES) return bytes;
  }
  throw new Error("no quality gives a file under the size ceiling");
}

interface Proof {
  name: string;
  type: string;
  bytes: Buffer;
}

/**
 * The three costliest proofs a post may carry, each at its type's pixel ceiling and as close under 5 MiB
 * as a quality step gets it: a phone's photo (JPEG, EXIF orientation 6: turning it upright needs the
 * whole image), a screenshot (PNG) and a WebP.
 */
async function largestProofs(seed: number): Promise<Proof[]> {
  // A quarter of the size each way, enlarged: a photo's detail, enough to fill most of 5 MiB.
  const photo = noise(WIDTH / 4, Math.floor(HEIGHT / 4), seed).resize(WIDTH, HEIGHT, {
    kernel: "cubic",
  });
  const jpeg = await underTheSizeCeiling((quality) =>
    photo.clone().withMetadata({ orientation: 6 }).jpeg({ quality }).toBuffer(),
  );
  // Blocks of 10 pixels, as a screen's flat areas and text compress.
  const screen = await noise(WIDTH / 10, HEIGHT / 10, seed + 1)
    .resize(WIDTH, HEIGHT, { kernel: "nearest" })
    .png({ compressionLevel: 9 })
    .toBuffer();
  if (screen.length > MAX_PROOF_BYTES) throw new Error("the PNG is over the size ceiling");
  const webpImage = noise(WEBP_WIDTH / 4, WEBP_HEIGHT / 4, seed + 2).resize(
    WEBP_WIDTH,
    WEBP_HEIGHT,
    { kernel: "cubic" },
  );
  const webp = await underTheSizeCeiling((quality) =>
    webpImage.clone().webp({ quality }).toBuffer(),
  );
  return [
    { name: "photo.jpg", type: "image/jpeg", bytes: jpeg },
    { name: "screenshot.png", type: "image/png", bytes: screen },
    { name: "capture.webp", type: "image/webp", bytes: webp },
  ];
}

ensureBuild();
const cpuBefore = probeCpu();
console.log(describeCpu("before the run", cpuBefore));

const port = await freePort();
const databaseUrl = `file:${path.resolve(".tmp/bench-proofs")}/hostfront.db`;
const server = await startServer({ port, databaseUrl, env: { WEB_CONCURRENCY: "1" } });
const services = benchServices(databaseUrl);
const verdicts: Verdict[] = [];
const rows: Record<string, string | number>[] = [];
try {
  const method = (await listPaymentMethodsForAdmin(services.db)).find(
    (each) => each.code === "orange-money",
  )!;
  const admin = await services.db
    .selectFrom("users")
    .select("id")
    .where("role", "=", "admin")
    .executeTakeFirstOrThrow();
  const opened = await updatePaymentMethod(services.db, {
    actorId: admin.id,
    id: method.id,
    method: {
      ...method,
      instructions: { en: "Send to 0611 111 111", fr: "", ar: "" },
      enabled: true,
      rate: 1100,
      minCoins: 5,
      maxCoins: 200,
    },
  });
  if (!opened.ok) throw new Error(opened.error);
  // Three new customers a round: a customer has one open request at a time, and a paid one stays open
  // until an admin decides it.
  const everyone = await createCustomers(services, CUSTOMERS * ROUNDS, 0);
  const customers = everyone.slice(0, CUSTOMERS);
  console.log(`Writing ${ROUNDS * CUSTOMERS} posts of three proofs...`);
  const files: Proof[][] = [];
  for (let post = 0; post < ROUNDS * CUSTOMERS; post++)
    files.push(await largestProofs(post * 3 + 1));
  for (const file of files[0]!)
    console.log(`${file.name}: ${(file.bytes.length / 1024 ** 2).toFixed(2)} MiB`);

  // The process as it is in use: a warm-up of the pages the customers see.
  await warmUp(QUICK ? 60 : 600, async (i) => {
    const customer = customers[i % CUSTOMERS]!;
    const page = i % 2 ? "/dashboard" : "/dashboard/top-up";
    const response = await fetch(`${server.url}${page}`, { headers: { cookie: customer.cookie } });
    await response.arrayBuffer();
  });

  let errors = 0;
  let stored = 0;
  let previews = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const posting = everyone.slice(round * CUSTOMERS, (round + 1) * CUSTOMERS);
    const requests = await Promise.all(
      posting.map(async (customer) => {
        const asked = await requestTopUp(services.db, {
          userId: customer.userId,
          methodId: method.id,
          coins: 10,
        });
        if (!asked.ok) throw new Error(asked.error);
        return asked.request.id;
      }),
    );
    const serverPid = server.pid;
    await settle();
    const before = treeMemoryMb(serverPid, "VmRSS");
    let highest = before;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        highest = Math.max(highest, treeMemoryMb(serverPid, "VmRSS"));
        await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
      }
    })();
    const started = performance.now();
    const answers = await Promise.all(
      posting.map(async (customer, index) => {
        const form = new FormData();
        form.set("intent", "paid");
        form.set("requestId", String(requests[index]));
        form.set("payerAccount", "0622 222 222");
        form.set("paidOn", new Date().toISOString().slice(0, 10));
        for (const file of files[round * CUSTOMERS + index]!)
          form.append(
            "proofs",
            new File([new Uint8Array(file.bytes)], file.name, { type: file.type }),
          );
        const response = await fetch(`${server.url}/dashboard/top-up`, {
          method: "POST",
          // A browser's post (browserFormHeaders) but for its type: FormData sets the multipart one.
          headers: { ...BROWSER_HEADERS, cookie: customer.cookie, "sec-fetch-site": "same-origin" },
          body: form,
          redirect: "manual",
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    sampling = false;
    await sampler;
    const after = treeMemoryMb(serverPid, "VmRSS");
    await settle();
    const settled = treeMemoryMb(serverPid, "VmRSS");
    const kept = await services.db
      .selectFrom("top_up_proofs")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("top_up_request_id", "in", requests)
      .executeTakeFirstOrThrow();
    stored += Number(kept.count);
    // Each image gets its preview in the same turn as its decode (every file here is an image).
    const previewed = await services.db
      .selectFrom("top_up_proof_thumbnails")
      .innerJoin("top_up_proofs", "top_up_proofs.id", "top_up_proof_thumbnails.proof_id")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("top_up_proofs.top_up_request_id", "in", requests)
      .executeTakeFirstOrThrow();
    previews += Number(previewed.count);
    errors += answers.filter((status) => status !== 200).length;
    rows.push({
      round: round + 1,
      posts: CUSTOMERS,
      answers: answers.join(", "),
      "files stored": Number(kept.count),
      "seconds to the last answer": seconds.toFixed(1),
      "RSS MB before": before.toFixed(0),
      "highest RSS MB during": highest.toFixed(0),
      "RSS MB after": after.toFixed(0),
      [`RSS MB ${SETTLE_MS / 1000} s later`]: settled.toFixed(0),
    });
    verdicts.push(
      atMost(
        `round ${round + 1}: highest RSS of the server process while ${CUSTOMERS} accounts post ${MAX_PROOFS_PER_TOP_UP} proofs at their pixel ceilings`,
        highest,
        RSS_BUDGET_MB + BURST_ALLOWANCE_MB,
        " MB",
      ),
    );
  }
  verdicts.push(
    none("posts not answered 200", errors),
    passes(
      "every file stored",
      stored === ROUNDS * CUSTOMERS * MAX_PROOFS_PER_TOP_UP,
      `${stored} of ${ROUNDS * CUSTOMERS * MAX_PROOFS_PER_TOP_UP}`,
    ),
    passes(
      "every image's preview made with its upload",
      previews === ROUNDS * CUSTOMERS * MAX_PROOFS_PER_TOP_UP,
      `${previews} of ${ROUNDS * CUSTOMERS * MAX_PROOFS_PER_TOP_UP}`,
    ),
  );
  server.assertRunning();
} finally {
  await services.database.destroy();
  await server.stop();
}

printTable("Proofs of payment: memory of one server process", rows);
console.log(describeCpu("after the run", probeCpu()));
reportVerdicts(`proofs of payment${QUICK ? " (--quick: not a measure)" : ""}`, verdicts);
process.exit(process.exitCode ?? 0);
