import { config, z } from "zod";

// Zod compiles fast parsers with `new Function` and probes for it when a schema is created; our CSP
// forbids eval, and the caught probe still reports a violation. Every module imports z from here, so this
// runs before any schema exists (in the browser the route chunks can load before the client entry).
config({ jitless: true });

export { z };
