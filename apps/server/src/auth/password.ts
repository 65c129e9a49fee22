import { hash, verify } from '@node-rs/argon2';

/** Slow salted hashes (argon2id, library defaults: 19 MiB, 2 passes). */
export const hashPassword = (password: string) => hash(password);

// Verifying against a throwaway hash when the user does not exist keeps the answer time the same.
let dummyHash: Promise<string> | null = null;

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hash('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
