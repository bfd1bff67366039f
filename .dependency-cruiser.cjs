/**
 * The floors of the house (docs/architecture.md), checked by `npm run layers` inside `npm run validate`.
 * `npm run layers:graph` draws docs/layers.mmd from the same folders.
 *
 *   launcher: server/ (composition root → HTTP front, overload, operations), ops/ → app, api, identity, demo
 *   identity: identity/ (the provider and the web app's sessions, main thread) → api/db, api services → domain
 *   app:  routes (+ root, entries) → components → common → domain
 *         routes → services (*.server.ts) → common → domain
 *   api:  app.ts, thread host → routes → commands, queries, mappers, … → db → domain
 *   demo: demo/ (seeders, demo content, demo tools) → api, identity (what it imports) → db → domain
 *   domain imports nothing of the project.
 * Type-only imports count: a circle of types is still a circle a reader has to hold.
 */
const { rooms } = require("./scripts/layers.cjs");

/** One rule per room of scripts/layers.cjs: nothing in it imports a room on a higher floor. */
const floors = rooms
  .map((room, i) => ({ room, before: rooms.slice(0, i), above: rooms.filter((r) => r.floor > room.floor) }))
  .filter(({ above }) => above.length > 0)
  .map(({ room, before, above }) => ({
    name: `floor-${room.floor}-${room.name.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}`.replace(/-+$/, ""),
    severity: "error",
    comment: `${room.name} (floor ${room.floor}) imports nothing on a higher floor (scripts/layers.cjs).`,
    // A module belongs to the first room that matches it: the rooms listed earlier are not this one.
    from: { path: room.path, pathNot: ["\\.(test|spec)\\.tsx?$", ...before.map((r) => r.path)] },
    to: { path: above.map((r) => `(${r.path})`).join("|") },
  }));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...floors,
    {
      name: "no-circular",
      severity: "error",
      comment: "No circles of imports, type-only ones included.",
      from: {},
      to: { circular: true },
    },
    {
      name: "domain-is-pure",
      severity: "error",
      comment: "domain/ holds the spec's rules as pure code: it imports nothing of the project.",
      from: { path: "^domain/" },
      to: { path: "^(app|api|server|ops|identity|demo)/" },
    },
    {
      name: "app-reaches-api-over-http",
      severity: "error",
      comment: "app/ reaches the LMS API only through its typed HTTP client (app/services/lms.server.ts).",
      from: { path: "^app/" },
      to: { path: "^api/" },
    },
    {
      name: "api-knows-no-app",
      severity: "error",
      comment: "The embedded LMS API could be any LMS: it imports nothing of the web app.",
      from: { path: "^api/" },
      to: { path: "^(app|server|ops)/" },
    },
    {
      name: "app-knows-no-launcher",
      severity: "error",
      comment: "The web app is started by the launcher (server/) and gets everything through its load context.",
      from: { path: "^app/" },
      to: { path: "^(server|ops|identity|demo)/" },
    },
    {
      name: "only-roots-build-the-api",
      severity: "error",
      comment: "Building the API is the composition roots' job: server/embedded-lms.ts, the thread host, tests.",
      from: {
        path: "^",
        pathNot: "^(server/embedded-lms\\.ts|api/app-thread\\.ts|demo/|tests/|bench/)|\\.test\\.ts$",
      },
      to: { path: "^api/app\\.ts$" },
    },
    {
      name: "api-runs-without-identity",
      severity: "error",
      comment:
        "The API may run in the database thread; the identity provider and sessions run on the main thread: no import.",
      from: { path: "^api/", pathNot: "\\.test\\.ts$" },
      to: { path: "^identity/" },
    },
    {
      name: "db-is-ground",
      severity: "error",
      comment: "api/db/ talks to the database only: it imports nothing of api/ above it.",
      from: { path: "^api/db/" },
      to: { path: "^api/", pathNot: "^api/db/" },
    },
    {
      name: "api-knows-no-demo",
      severity: "error",
      comment: "The demo data and its seeders sit above the API; the API never imports them.",
      from: { path: "^api/", pathNot: "^api/app-thread\\.ts$|\\.test\\.ts$" },
      to: { path: "^demo/" },
    },
    {
      name: "components-below-routes",
      severity: "error",
      comment: "Components render what routes hand them: no route modules, no server code.",
      from: { path: "^app/components/" },
      to: { path: "^app/(routes/|services/|root\\.tsx|entry\\.)|\\.server\\.tsx?$" },
    },
    {
      name: "services-below-components",
      severity: "error",
      comment: "Services (server-only) know no component and no route: what both need lives in app/common or domain.",
      from: { path: "^app/services/" },
      to: { path: "^app/(routes/|components/|root\\.tsx|entry\\.)" },
    },
    {
      name: "common-is-low",
      severity: "error",
      comment: "app/common is shared by components and services: it imports only itself and domain/.",
      from: { path: "^app/common/" },
      to: { path: "^app/", pathNot: "^app/common/" },
    },
    {
      name: "no-unresolvable",
      severity: "error",
      comment: "An import that resolves to nothing.",
      from: {},
      // React Router's generated route types (./+types/…) live in .react-router/ until typegen runs.
      to: { couldNotResolve: true, pathNot: "/\\+types/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|build|data|\\.react-router|test-results|playwright-report)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mjs", ".js", ".d.ts", ".json"],
    },
  },
};
