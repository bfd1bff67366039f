import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { createLocalJWKSet, jwtVerify } from "jose";
import { createTestApi, type TestApi } from "../fixtures/api";
import * as s from "../../api/db/schema";
import { CertificateCommandError, listCertificates, revokeCertificate } from "../../api/certificate-revocation";
import { operatorCommand } from "../fixtures/operator-cli";

/**
 * Issue 32 item 4: `npm run certificates -- list|revoke` — the operator revokes a certificate with a
 * reason; its bit in the signed Bitstring Status List flips and the public lookup says revoked. The
 * running-server path (/operator/v1/certificates) and the public page are the browser test's
 * (tests/e2e/certificate-revocation.spec.ts).
 */
const LMS = "/api/lms/v1";
let t: TestApi;
let address = 0;

beforeAll(async () => {
  t = await createTestApi({ catalog: true });
});
afterAll(() => t.close());

async function statusBit(index: number) {
  const jwks = createLocalJWKSet(await (await t.request("GET", `${LMS}/public/credentials/jwks.json`)).json());
  const { payload } = await jwtVerify(
    await (await t.request("GET", `${LMS}/public/credentials/status/1`)).text(),
    jwks,
  );
  const bytes = gunzipSync(
    Buffer.from((payload.credentialSubject as { encodedList: string }).encodedList.slice(1), "base64url"),
  );
  return (bytes[index >> 3]! >> (7 - (index & 7))) & 1;
}

describe("listing and revoking certificates (api/certificate-revocation.ts)", () => {
  it("lists certificates newest first, by holder, and the revoked ones", async () => {
    const all = await listCertificates(t.database.db, { revoked: false, limit: 100 });
    expect(all.length).toBeGreaterThan(1);
    const dates = all.map((c) => c.issued.getTime());
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    const ada = await listCertificates(t.database.db, { user: "ADA@example.com", revoked: false, limit: 100 });
    expect(ada.length).toBeGreaterThan(0);
    expect(new Set(ada.map((c) => c.holder))).toEqual(new Set(["ada@example.com"]));
  });

  it("sets the status-list bit and the public page's revoked, once; the reason and date stay", async () => {
    // One of ada's certificates whose public page is shown (a result still hidden has none: spec 4.7).
    const certs = await t.database.db
      .select()
      .from(s.certificateRecords)
      .where(eq(s.certificateRecords.userId, t.users.ada));
    let cert: (typeof certs)[number] | undefined;
    for (const c of certs) {
      const shown = await t.request("GET", `${LMS}/public/certificate-records/by-number/${c.certificateNumber}`, {
        headers: { "X-Client-IP": `198.51.100.${++address}` },
      });
      if (shown.status === 200 && !(await shown.json()).revoked) {
        cert = c;
        break;
      }
    }
    expect(cert, "a certificate of ada's with a public page").toBeDefined();
    expect(await statusBit(cert!.statusListIndex)).toBe(0);
    const at = new Date("2026-11-25T12:00:00Z");
    const typed = cert!.certificateNumber.toLowerCase().replace(/-/g, " ");
    const result = await revokeCertificate(t.database.db, { number: typed, reason: "Issued in error" }, at);
    expect(result).toMatchObject({
      number: cert!.certificateNumber,
      revokedAt: at,
      reason: "Issued in error",
      changed: true,
    });
    expect(await statusBit(cert!.statusListIndex)).toBe(1);
    const page = await t.request("GET", `${LMS}/public/certificate-records/by-number/${cert!.certificateNumber}`, {
      headers: { "X-Client-IP": `198.51.100.${++address}` },
    });
    expect((await page.json()).revoked).toBe(true);
    // Again: nothing changes.
    const again = await revokeCertificate(
      t.database.db,
      { number: cert!.certificateNumber, reason: "Other" },
      new Date(),
    );
    expect(again).toMatchObject({ revokedAt: at, reason: "Issued in error", changed: false });
    const revoked = await listCertificates(t.database.db, { revoked: true, limit: 100 });
    expect(revoked.map((c) => c.number)).toContain(cert!.certificateNumber);
  });

  it("refuses a number that is not one, and an unknown one", async () => {
    await expect(revokeCertificate(t.database.db, { number: "../etc", reason: "x" }, new Date())).rejects.toThrow(
      CertificateCommandError,
    );
    await expect(
      revokeCertificate(t.database.db, { number: "LA-0000-0000-0000-0000", reason: "x" }, new Date()),
    ).rejects.toThrow("No certificate has the number LA-0000-0000-0000-0000.");
  });
});

describe("npm run certificates (the operator's command, no server running)", () => {
  it(
    "opens the embedded database; a refusal says why and exits 1; a missing reason is a usage error",
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "certificates-cli-"));
      const run = async (args: string[]) => {
        try {
          const [program, argv] = operatorCommand("certificates", args);
          const out = await promisify(execFile)(program, argv, {
            env: { ...process.env, DATA_DIR: dir, PORT: "3997" },
            timeout: 60_000,
          });
          return { code: 0, ...out };
        } catch (err) {
          return err as { code: number; stdout: string; stderr: string };
        }
      };
      try {
        const list = await run(["list"]);
        expect(list.code).toBe(0);
        expect(JSON.parse(list.stdout)).toEqual([]);
        const unknown = await run(["revoke", "LA-0000-0000-0000-0000", "--reason", "test"]);
        expect(unknown.code).toBe(1);
        expect(unknown.stderr).toContain("Refused: No certificate has the number LA-0000-0000-0000-0000.");
        const noReason = await run(["revoke", "LA-0000-0000-0000-0000"]);
        expect(noReason.code).toBe(2);
        expect(noReason.stderr).toContain("Usage: npm run certificates");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
