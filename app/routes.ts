import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

/**
 * Every URL of spec 2.1 under the "learn" prefix, plus the resource routes outside it
 * (/oidc/*, /config-ui/config.json). Route modules are named after their URL.
 */
export default [
  route("oidc/login", "routes/oidc.login.ts"),
  route("oidc/logout", "routes/oidc.logout.tsx"),
  route("config-ui/config.json", "routes/config-ui.config-json.ts"),
  route("platform", "routes/platform.tsx"),
  route("certificate/:number", "routes/certificate.$number.ts"),
  ...prefix("learn", [
    route("locales/:lng/:ns", "routes/learn.locales.ts"),
    route("login-callback", "routes/learn.login-callback.tsx"),
    route("language", "routes/learn.language.ts"),
    route("browser-alert", "routes/learn.browser-alert.ts"),
    route("collect", "routes/learn.collect.ts"),
    route("files/:activityId", "routes/learn.files.$activityId.ts"),
    // Issue 16 item 3: a chat message's file, to the members of the course's hub.
    route("chat-files/:attachmentId", "routes/learn.chat-files.$attachmentId.ts"),
    // Decision 048: a hand-in's file, to the learner and her graders.
    route("hand-in-files/:fileId", "routes/learn.hand-in-files.$fileId.ts"),
    route("assessment-files/:fileId", "routes/learn.assessment-files.$fileId.ts"),
    // The SCORM player's commits (the package's files are on the content origin, decision 040).
    route("scorm-runtime/:workflowId/:activityWorkflowId", "routes/learn.scorm-runtime.ts"),
    // LTI launches (the learner's launch, the platform's OIDC authorization endpoint).
    route("lti/launch", "routes/learn.lti.launch.ts"),
    route("lti/authorize", "routes/learn.lti.authorize.ts"),
    route("lti-tool-callback", "routes/learn.lti-tool-callback.ts"),
    route("forbidden", "routes/learn.forbidden.tsx"),
    // Issue 31 item 3: installable (the manifest), and the page shown offline for a page never kept.
    route("manifest.webmanifest", "routes/learn.manifest.ts"),
    route("offline", "routes/learn.offline.tsx"),
    // Where signing out ends.
    route("signed-out", "routes/learn.signed-out.tsx"),
    // An e-mail's unsubscribe link (signed; no sign-in; RFC 8058 one-click POST).
    route("unsubscribe", "routes/learn.unsubscribe.tsx"),
    route("catalog", "routes/learn.catalog._index.tsx"),
    route("catalog/:id/*?", "routes/learn.catalog.$id.tsx"),
    route("open-catalog", "routes/learn.open-catalog._index.tsx"),
    route("open-catalog/:id/view/details", "routes/learn.open-catalog.$id.view.details.tsx"),
    route("open-catalog/*", "routes/learn.open-catalog.$.tsx"),
    // The public certificate and its files (no sign-in, no menu).
    route("certificate/:number", "routes/learn.certificate.$number.tsx"),
    route("certificate/:number/download/:kind", "routes/learn.certificate.$number.download.$kind.ts"),
    layout("routes/learn.private.tsx", [
      index("routes/learn._index.tsx"),
      route("simulate-error", "routes/learn.simulate-error.tsx"),
      // Benchmark baseline (bench/run.ts); 404 unless BENCH_BARE=1.
      route("bench-bare", "routes/learn.bench-bare.tsx"),
      route("courses", "routes/learn.courses._index.tsx"),
      // The learner's grades, one course's part, and the CSV export.
      route("grades", "routes/learn.grades._index.tsx"),
      route("grades/export", "routes/learn.grades.export.ts"),
      route("grades/:id", "routes/learn.grades.$id.tsx"),
      route("courses/redirect/:id", "routes/learn.courses.redirect.$id.tsx"),
      // Issue 16 item 4: a course's details and content pages, with the AI tutor widget (decision 028).
      layout("routes/learn.course-pages.tsx", [
        route("courses/:id", "routes/learn.courses.$id.tsx", { id: "course-details" }),
        route("courses/:id/view/details", "routes/learn.courses.$id.tsx", { id: "course-details-view" }),
        route("courses/:id/:accessId", "routes/learn.courses.$id.tsx", { id: "course-details-access" }),
        route("courses/:id/view/content/:axis?", "routes/learn.courses.$id.view.content.tsx", {
          id: "course-content",
        }),
        route("courses/:id/workflow/:workflowId/view", "routes/learn.courses.$id.view.content.tsx", {
          id: "course-workflow-view",
        }),
      ]),
      route(
        "courses/proctor/:objectiveId/:activityPathId",
        "routes/learn.courses.proctor.$objectiveId.$activityPathId.tsx",
      ),
      route("courses/:id/view/notifications", "routes/learn.courses.$id.view.notifications.tsx"),
      // Decision 048: an assignment's hand-in, and the grading queue of those who grade.
      route("courses/:id/hand-in/:partId", "routes/learn.courses.$id.hand-in.$partId.tsx"),
      route("courses/:id/hand-in/:partId/upload", "routes/learn.courses.$id.hand-in.$partId.upload.ts"),
      route("grading", "routes/learn.grading._index.tsx"),
      route("grading/test/:attemptId", "routes/learn.grading.test.$attemptId.tsx"),
      route("grading/:handInId", "routes/learn.grading.$handInId.tsx"),
      // A QTI test or survey of the course, each page one form; scored by the server.
      route("courses/:id/assessment/:workflowId/:awId", "routes/learn.courses.$id.assessment.tsx"),
      // Issue 31 item 3: which pages of a course the service worker keeps for offline reading.
      route("courses/:id/offline-copy", "routes/learn.courses.$id.offline-copy.ts"),
      // The live chat of the Notifications layer (server-sent events).
      route("courses/:id/chat-events", "routes/learn.courses.$id.chat-events.ts"),
      // The course pages of an LTI course learn of the tool's score (server-sent events).
      route("courses/:id/progress-events", "routes/learn.courses.$id.progress-events.ts"),
      route("courses/:id/tutor", "routes/learn.courses.$id.tutor.tsx"),
      route("courses/:id/tutor/stream", "routes/learn.courses.$id.tutor.stream.ts"),
      route("courses/:id/view/*", "routes/learn.courses.$id.view.$.tsx"),
      route("courses/:id/certificate/:number", "routes/learn.courses.$id.certificate.$number.tsx"),
      route(
        "courses/:id/certificate/:number/download/:kind",
        "routes/learn.courses.$id.certificate.$number.download.$kind.ts",
      ),
      route("email-response-callback", "routes/learn.email-response-callback.tsx"),
      route("profile", "routes/learn.profile.tsx", { id: "profile-personal" }),
      route("feedback", "routes/learn.feedback.tsx"),
      route("profile/time-zone", "routes/learn.profile.tsx", { id: "profile-time-zone" }),
      // The e-mail the learner gets.
      route("profile/email", "routes/learn.profile.email.tsx"),
      route("calendar/*", "routes/learn.calendar.$.tsx"),
    ]),
    route("*", "routes/learn.$.tsx", { id: "learn-not-found" }),
  ]),
  route("*", "routes/learn.$.tsx", { id: "not-found" }),
] satisfies RouteConfig;
