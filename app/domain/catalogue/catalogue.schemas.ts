import { z } from "~/lib/zod";
import { PRODUCT_TYPES } from "./catalogue";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

export const productTypeSchema = z.enum(PRODUCT_TYPES);
