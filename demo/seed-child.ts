/**
 * The demo seed of a node on PostgreSQL, in a process of its own (decision 038, addendum 11): the
 * seed's modules, its SCORM packages and PDFs left a node ~40 MB heavier for good after its first
 * start (285 against 235 MB after the bench's warm-up). `seed-process.ts` starts it under the node's
 * "seed" lock; the answer is one message, `{ seeded }`, and the exit code.
 *
 * Environment: DATABASE_URL, DATA_DIR and the storage settings as the node has them (decision 037),
 * SEED_DEMO_ACCOUNTS=1 when the demo accounts are allowed (decision 017).
 */
import { resolve } from "node:path";
import { openDatabase } from "../api/db/client";
import { openFileStore, storageConfigFrom } from "../api/files/object-store";
import { seedIfEmpty } from "./seed";

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("seed-child: DATABASE_URL is not set (the embedded database seeds in its node)");
const database = await openDatabase({ databaseUrl });
try {
  const files = openFileStore(storageConfigFrom(process.env, resolve(process.env.DATA_DIR ?? "./data", "storage")));
  const seeded = await seedIfEmpty(database.db, { accounts: process.env.SEED_DEMO_ACCOUNTS === "1", store: files });
  await new Promise<void>((done) => (process.send ? process.send({ seeded }, () => done()) : done()));
} finally {
  await database.close();
}
