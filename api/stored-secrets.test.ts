import { describe, expect, it } from "vitest";
import type { JWK } from "jose";
import type { Db } from "./db/client";
import { followSigningKeys } from "./stored-secrets";

/** A database whose reads of the stored keys wait until the test lets each one answer. */
function heldReads() {
  const pending: { answer: (kid: string) => void }[] = [];
  const db = {
    select: () => ({
      from: () => ({
        where: () =>
          new Promise((resolve) =>
            pending.push({
              answer: (kid) => resolve([{ name: "signing-keys", value: { current: { kid } as JWK, previous: [] } }]),
            }),
          ),
      }),
    }),
  } as unknown as Db;
  return { db, pending };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("followSigningKeys", () => {
  it("asked while a read begun before the rotation is under way, it reads once more and follows", async () => {
    const { db, pending } = heldReads();
    const heard: string[] = [];
    const follower = followSigningKeys(
      db,
      { kid: "k1" } as JWK,
      (keys) => heard.push(String(keys.signingKey.kid)),
      60_000,
    );
    try {
      // A read under way (the timer's, say) that began before the rotation…
      const early = follower.check();
      // …and then a token signed by the new key asks.
      const asked = follower.check();
      expect(pending).toHaveLength(1);
      pending[0]!.answer("k1"); // the early read saw the old key
      await early;
      await tick();
      expect(pending, "a second read, begun after the asking").toHaveLength(2);
      pending[1]!.answer("k2");
      await asked;
      expect(heard).toEqual(["k2"]);
    } finally {
      follower.stop();
    }
  });

  it("several asking at once share the one read after the one under way", async () => {
    const { db, pending } = heldReads();
    const follower = followSigningKeys(db, { kid: "k1" } as JWK, () => {}, 60_000);
    try {
      const first = follower.check();
      const asks = [follower.check(), follower.check(), follower.check()];
      pending[0]!.answer("k1");
      await first;
      await tick();
      expect(pending).toHaveLength(2);
      pending[1]!.answer("k1");
      await Promise.all(asks);
      expect(pending).toHaveLength(2);
    } finally {
      follower.stop();
    }
  });
});
