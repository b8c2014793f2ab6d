import pino from "pino";
import { readEnvEarly } from "~/config/env.server";

export const loggerRedactPaths = [
  "req.headers.cookie",
  "req.headers.authorization",
  'res.headers["set-cookie"]',
  "*.password",
  "*.currentPassword",
  "*.newPassword",
  "*.token",
];

export const logger = pino({
  // Made while modules load, before server/index.ts has run getEnv().
  level: readEnvEarly(["LOG_LEVEL"]).LOG_LEVEL,
  redact: { paths: loggerRedactPaths, censor: "[redacted]" },
});
