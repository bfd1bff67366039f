/**
 * The floors of the house and the rooms on them: one table, read by the import rules
 * (`.dependency-cruiser.cjs`, `npm run layers`) and by the picture (`npm run layers:graph` →
 * docs/layers.md). A module belongs to the first room whose pattern matches its path.
 * Floors are numbered from the ground: an import may point down or sideways within its own
 * side (web app, LMS API), never up; the rules say which sideways arrows are allowed.
 */
const rooms = [
  // The launcher (server/): the composition root puts the web app and the embedded LMS together.
  { name: "composition root", side: "launcher", floor: 10, path: "^server/[^/]+\\.ts$" },
  { name: "HTTP front, overload, operations", side: "launcher", floor: 9, path: "^server/" },
  { name: "operator commands (ops/)", side: "launcher", floor: 9, path: "^ops/" },
  // The demo (data, seeders, demo tools, test support): above the API it fills, started by the launcher.
  { name: "demo (data, seeders, demo tools, test support)", side: "demo", floor: 8, path: "^demo/" },
  // The identity provider and the web app's sessions: main thread, beside the web app, on the API's database.
  { name: "identity provider and sessions", side: "identity", floor: 5, path: "^identity/" },
  // The web app (React Router).
  { name: "routes", side: "app", floor: 8, path: "^app/(routes/|routes\\.ts$|root\\.tsx$|entry\\.)" },
  { name: "components", side: "app", floor: 7, path: "^app/(components/|analytics\\.client\\.ts$)" },
  { name: "services (*.server)", side: "app", floor: 7, path: "^app/services/" },
  { name: "common (forms, views, i18n)", side: "app", floor: 6, path: "^app/common/" },
  // The embedded LMS API (Hono).
  { name: "API thread host", side: "api", floor: 9, path: "^api/app-thread\\.ts$" },
  { name: "API app", side: "api", floor: 7, path: "^api/app\\.ts$" },
  { name: "API routes", side: "api", floor: 6, path: "^api/routes/" },
  { name: "OpenAPI document", side: "api", floor: 6, path: "^api/openapi\\.ts$" },
  { name: "commands", side: "api", floor: 5, path: "^api/commands/" },
  {
    name: "SCORM, LTI, proctoring, jobs",
    side: "api",
    floor: 5,
    path: "^api/(scorm|assessment|lti/(?!registry\\.ts$)|proctoring|jobs)/?",
  },
  { name: "LTI tool registry", side: "api", floor: 4, path: "^api/lti/registry\\.ts$" },
  { name: "files (storage, certificate files)", side: "api", floor: 4, path: "^api/files/" },
  { name: "mail (outbox, transport, texts)", side: "api", floor: 4, path: "^api/mail/" },
  { name: "queries and mappers", side: "api", floor: 4, path: "^api/(queries|mappers)/" },
  { name: "API services (auth, validation, limits, settings…)", side: "api", floor: 4, path: "^api/[^/]+\\.ts$" },
  { name: "db (schema, client, migrations)", side: "api", floor: 3, path: "^api/db/" },
  // The spec's rules, pure; shared by both sides.
  { name: "domain (the spec's rules, vocabulary, the API's contract)", side: "domain", floor: 1, path: "^domain/" },
];

function roomOf(path) {
  return rooms.find((r) => new RegExp(r.path).test(path)) ?? null;
}

module.exports = { rooms, roomOf };
