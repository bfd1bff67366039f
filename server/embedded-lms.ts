/**
 * The embedded LMS: the demo seed, the identity provider at /idp (unless OIDC_ISSUER names another),
 * and the LMS API, hosted in the database thread beside PGlite (decision 012) or in this process on
 * PostgreSQL, with its background jobs. Built from the same plain settings either way.
 */
import { createHmac } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { resolve } from "node:path";
import type { ApiDeps, ApiSettings } from "../api/context";
import type { Database } from "../api/db/client";
import { createApi } from "../api/app";
import { startApiInThread } from "../api/app-thread";
import { embeddedDataDir } from "../api/db/pglite-start";
import { refreshStatistics, statisticsMarkFile } from "../api/db/maintenance";
import type { FileStore } from "../api/files/object-store";
import { createIdentityProvider, IDP_MOUNT } from "../identity/provider";
import { startJobs } from "../api/jobs/run";
import type { LtiRegistryOptions } from "../api/lti/registry";
import { takeOverToolsFile, TOOLS_FILE } from "../api/lti/tool-store";
import { verifierFrom, type Secrets, type VerifierConfig } from "../api/runtime";
import { followSigningKeys } from "../api/stored-secrets";
import { demoPassword } from "../demo/demo-accounts";
import { seedOnStart } from "../demo/seed-process";
import { testSupportMount } from "../demo/test-support";
import { rootLog } from "../app/services/logger.server";
import type { ServerConfig } from "./config";
import type { DerivedKeys } from "./keys";
import type { AddressOf } from "./http/client-address";

type SigningKeys = Pick<Secrets, "signingKey" | "previousSigningKeys">;
type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface EmbeddedLms {
  /** The API, reached without a socket. */
  fetch: (request: Request) => Response | Promise<Response>;
  /** The embedded provider's handler for /idp, or null with an external provider. */
  idpHandler: () => NodeHandler | null;
  /** The embedded provider's sign-out on the server, for the app's /oidc/logout. */
  providerSignOut: ((idToken: string) => Promise<number>) | undefined;
  /** What the web app adds to its configuration to discover the embedded provider. */
  client: { OIDC_ISSUER: string; OIDC_CLIENT_ID: string; OIDC_CLIENT_SECRET: string } | null;
  /** Makes the planner statistics when due, or now (`force`). */
  keepStatistics: (force: boolean) => Promise<void>;
  /** The last line `npm start` prints when the demo accounts exist and sign-in is the embedded provider's. */
  demoHint: string | null;
}

export async function startEmbeddedLms(
  config: ServerConfig,
  parts: {
    database: Database;
    secrets: Secrets;
    keys: DerivedKeys;
    files: FileStore;
    lti: LtiRegistryOptions;
    addressOf: AddressOf;
  },
): Promise<EmbeddedLms> {
  const { database, secrets, keys, files, lti } = parts;
  const { appUrl, dataDir, demoAllowed } = config;
  // Several nodes may start together on one PostgreSQL database: the seed runs on one of them under
  // advisory locks; the others wait, then find nothing left to do (decision 019). A registry file this
  // node kept before the tools moved to the database is taken over once (decision 043).
  await takeOverToolsFile(database, resolve(dataDir, TOOLS_FILE));
  const seeded = await seedOnStart(database, { accounts: demoAllowed, store: files });
  if (seeded)
    rootLog.info(
      demoAllowed
        ? "seed: demo data created (accounts: see README, password 'demo')"
        : "seed: demo data created without the demo accounts (APP_URL is not a loopback origin; DEMO_ACCOUNTS=1 allows them)",
    );
  // Planner statistics: after a seed at once, else when a day old or the data grew; beside the first
  // requests, not before them (decision 038).
  const keepStatistics = (force: boolean) =>
    refreshStatistics(database, { markFile: statisticsMarkFile(embeddedDataDir()), force })
      .then(() => undefined)
      .catch((err: unknown) => rootLog.warn({ err }, "db: planner statistics not refreshed"));
  void keepStatistics(seeded);

  const onRotation: ((keys: SigningKeys) => void)[] = [];
  let idpHandler: NodeHandler | null = null;
  let providerSignOut: EmbeddedLms["providerSignOut"];
  let client: EmbeddedLms["client"] = null;
  let verifier: VerifierConfig;
  if (config.oidc) {
    verifier = { kind: "remote", issuer: config.oidc.issuer, audience: config.oidc.audience };
  } else {
    const issuer = `${appUrl}${IDP_MOUNT}`;
    const clientId = "learner-app";
    // Derived from the provider's stored secret: the same on every start and on every node, so a code
    // issued by one node can be exchanged at another.
    const clientSecret =
      config.idp.clientSecret ??
      createHmac("sha256", secrets.idpCookieKey).update("learner-app client secret").digest("base64url");
    // Other app processes this provider signs in for as their "external" provider (IDP_EXTRA_APP_URLS).
    const appUrls = [appUrl, ...config.idp.extraAppUrls];
    const provider = (signing: SigningKeys) =>
      createIdentityProvider({
        issuer,
        db: database.db,
        client: {
          clientId,
          clientSecret,
          redirectUris: appUrls.map((u) => `${u}/learn/login-callback`),
          postLogoutRedirectUris: appUrls.flatMap((u) => [
            `${u}/learn`,
            `${u}/learn/open-catalog`,
            `${u}/learn/signed-out`,
          ]),
        },
        signingKey: signing.signingKey,
        previousSigningKeys: signing.previousSigningKeys,
        cookieKeys: [secrets.idpCookieKey],
        showDemoHint: config.appEnv !== "prod" && demoAllowed,
        secureCookies: appUrl.startsWith("https:"),
        refusedPassword: demoAllowed ? null : demoPassword(),
        // Sign-up links and password resets go through the outbox (SMTP_URL, else DATA_DIR/outbox).
        mail: { appUrl, dataDir, smtpUrl: config.smtpUrl },
        clientAddress: parts.addressOf,
      });
    const use = (signing: SigningKeys) => {
      const idp = provider(signing);
      idpHandler = idp.handle;
      providerSignOut = idp.endSessionFor;
    };
    use(secrets);
    // A rotation on the database (decision 037): the provider signs with the new key from now on.
    onRotation.push(use);
    client = { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret };
    verifier = { kind: "local", issuer, key: secrets.signingKey, previousKeys: secrets.previousSigningKeys };
  }

  const settings: ApiSettings = {
    ...config.api,
    ...keys,
    signingKey: secrets.signingKey,
    previousSigningKeys: secrets.previousSigningKeys,
    lti,
  };
  let fetchApi: EmbeddedLms["fetch"];
  let follower: ReturnType<typeof followSigningKeys> | null = null;
  if (database.thread) {
    const thread = database.thread;
    await startApiInThread(thread, { ...settings, verifier, storage: config.storage, testSupport: config.testSupport });
    fetchApi = (request) => thread.fetch(request);
  } else {
    let verify = verifierFrom(verifier);
    const deps: ApiDeps = {
      ...settings,
      database,
      // A token signed by a key another node rotated in a moment ago: look at the database once, then
      // verify again (decision 037).
      verifyToken: (token) =>
        verify(token).catch(async (error: unknown) => {
          if ((error as { code?: string }).code !== "ERR_JWKS_NO_MATCHING_KEY" || !follower) throw error;
          await follower.check();
          return verify(token);
        }),
      files,
      internalRoutes: testSupportMount(config.testSupport),
    };
    const api = createApi(deps);
    // Every node may run the jobs: rows are claimed with SKIP LOCKED (decision 021).
    startJobs(deps);
    fetchApi = (request) => api.fetch(request);
    onRotation.push((signing) => {
      if (verifier.kind === "local")
        verify = verifierFrom({ ...verifier, key: signing.signingKey, previousKeys: signing.previousSigningKeys });
      Object.assign(deps, signing);
    });
  }
  // Nothing is remembered before this node hears the other nodes' writes (decision 019).
  await database.changes.listening();
  if (database.kind === "postgres")
    follower = followSigningKeys(
      database.db,
      secrets.signingKey,
      (signing) => onRotation.forEach((f) => f(signing)),
      config.secretsRefreshMs,
    );
  return {
    fetch: fetchApi,
    idpHandler: () => idpHandler,
    get providerSignOut() {
      return providerSignOut;
    },
    client,
    keepStatistics,
    demoHint:
      config.demoAllowed && !config.oidc
        ? `Demo sign-in: open ${config.appUrl}/learn and sign in as ada@example.com with the password "${demoPassword()}" (also grace@, admin@ and rita@example.com)`
        : null,
  };
}
