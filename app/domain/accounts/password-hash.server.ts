import { hash, verify, type Algorithm } from "@node-rs/argon2";

// OWASP's minimum for Argon2id: 19 MiB, 2 iterations, 1 lane (ADR 0005).
// Algorithm is an ambient const enum; 2 is its Argon2id member.
const ARGON2ID = 2 as Algorithm;
const options = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed hash (e.g. an imported record) is a failed check, not a crash.
    return false;
  }
}
