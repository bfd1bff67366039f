/**
 * The demo content: reads the data files under demo/data/ (see its README.md), validates them with
 * zod and cross-checks their references, and returns them typed, with the vocabulary's names turned
 * into its numbers. A mistake in a data file fails loudly, naming the file and the field:
 *
 *   demo/data/courses/python-basics/course.json: access.term: unknown term "sprng2026" (terms: …)
 *
 * Read once per process (`demoContent()`); nothing here writes to a database — the seed modules do.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { z } from "zod";
import { mayPostIn } from "../domain/chat";
import { cmiValueError, isSafeEntryName, scormScos, type ScormManifest } from "../domain/scorm";
import { ActivityKind, ObjectiveWorkflowState } from "../domain/vocabulary";
import { parseManifest } from "../api/scorm/manifest";
import { expandNode, type ActivityDef } from "./content/activities";
import {
  DEMO_DIR,
  DemoContentError,
  listDir,
  publicPath,
  PUBLIC_DIR,
  readHtml,
  readJson,
  shortPath,
  STORAGE_DIR,
} from "./content/files";
import {
  catalogSchema,
  courseSchema,
  learnerRecipeSchema,
  mediaSchema,
  reinforcementFileSchema,
  rootSchema,
  scormPackagesSchema,
  tenantSchema,
  usersSchema,
  type AccessSettings,
  type AttemptDef,
  type DemoUserDef,
  type GradingScaleDef,
  type LearnerRecipe,
  type Media,
  type RawNode,
  type ReinforcementQuestionDef,
} from "./content/schemas";

export type CourseDef = Omit<z.output<typeof courseSchema>, "access"> & {
  /** The folder name under courses/: the course's key in the data files. */
  slug: string;
  /** The about HTML (about.html). */
  about: string;
  access?: AccessSettings;
  /** The course's activity tree; the root is the course itself. */
  root: ActivityDef;
};

export interface DemoContent {
  tenant: z.output<typeof tenantSchema>;
  /** The demo accounts' password. */
  password: string;
  /** Demo accounts by key, in file order. */
  users: Record<string, DemoUserDef>;
  gradingScales: Record<string, GradingScaleDef>;
  collections: Record<string, string>;
  terms: Record<string, string>;
  filterCategories: Record<string, string[]>;
  /** In catalog order (creation order, oldest first). */
  courses: CourseDef[];
  media: Media;
  /** The demo users' recipes by user key (users without a learners/ file have none). */
  learners: Record<string, LearnerRecipe>;
  /** Reinforcement questions by course folder (reinforcement.json). */
  reinforcement: Record<string, ReinforcementQuestionDef[]>;
  /** The demo's SCORM packages (scorm/packages.json): a package folder for a course folder, with its manifest. */
  scormPackages: DemoScormPackage[];
}

interface DemoScormPackage {
  /** The course folder whose root activity receives the package. */
  course: string;
  /** The package's folder under scorm/ (zipped by the seed). */
  folder: string;
  manifest: ScormManifest;
}

/** Loads, validates and cross-checks every data file under `dir`. */
export function loadDemoContent(dir: string = DEMO_DIR): DemoContent {
  const path = (...parts: string[]) => join(dir, ...parts);
  const tenant = readJson(path("tenant.json"), tenantSchema);
  const { password, users } = readJson(path("users.json"), usersSchema);
  const catalog = readJson(path("catalog.json"), catalogSchema);
  const media = readJson(path("media.json"), mediaSchema);

  // Users: units of the tenant.
  for (const [key, user] of Object.entries(users)) {
    for (const [i, unit] of user.units.entries())
      if (!tenant.units.includes(unit))
        throw new DemoContentError(
          path("users.json"),
          `users.${key}.units[${i}]`,
          `unknown unit "${unit}" (units of tenant.json: ${tenant.units.join(", ")})`,
        );
  }

  const attributeNames = checkCatalog(path("catalog.json"), catalog);
  checkMedia(path("media.json"), media, STORAGE_DIR);

  // Courses.
  const folders = listDir(path("courses"));
  for (const folder of folders)
    if (!catalog.courses.includes(folder))
      throw new DemoContentError(path("catalog.json"), "courses", `the folder courses/${folder} is not listed`);
  const codes = new Map<string, string>();
  const courses: CourseDef[] = catalog.courses.map((slug, index) => {
    const courseDir = path("courses", slug);
    if (!existsSync(courseDir))
      throw new DemoContentError(path("catalog.json"), `courses[${index}]`, `courses/${slug} not found`);
    const course = readCourseFolder(courseDir, slug, { catalog, attributeNames, media });
    if (codes.has(course.code))
      throw new DemoContentError(
        join(courseDir, "course.json"),
        "code",
        `${course.code} is also the code of ${codes.get(course.code)}`,
      );
    codes.set(course.code, slug);
    return course;
  });

  // Groups: members are demo users; a team works in a course, on one of its activities if named.
  const names = (n: ActivityDef): string[] => [n.name, ...(n.children ?? []).flatMap(names)];
  for (const [i, g] of (tenant.groups ?? []).entries()) {
    for (const [j, m] of g.members.entries())
      if (!Object.hasOwn(users, m))
        throw new DemoContentError(path("tenant.json"), `groups[${i}].members[${j}]`, `unknown user "${m}"`);
    const course = g.course === undefined ? undefined : courses.find((c) => c.slug === g.course);
    if (g.course !== undefined && !course)
      throw new DemoContentError(path("tenant.json"), `groups[${i}].course`, `unknown course "${g.course}"`);
    if (g.kind === "team" && !course)
      throw new DemoContentError(path("tenant.json"), `groups[${i}].course`, "a team works in a course");
    if (g.activity !== undefined && !(course && names(course.root).includes(g.activity)))
      throw new DemoContentError(
        path("tenant.json"),
        `groups[${i}].activity`,
        `no activity "${g.activity}" in the course`,
      );
  }

  for (const [i, w] of (tenant.tutorWidget ?? []).entries()) {
    const course = courses.find((c) => c.slug === w.course);
    if (!course)
      throw new DemoContentError(path("tenant.json"), `tutorWidget[${i}].course`, `unknown course "${w.course}"`);
    if (!course.enableAiTutor)
      throw new DemoContentError(path("tenant.json"), `tutorWidget[${i}].course`, "the course's tutor is off");
  }

  // Discussion posts: written by demo users.
  for (const c of courses) {
    const walk = (a: ActivityDef) => {
      for (const [i, post] of (a.posts ?? []).entries())
        if (!Object.hasOwn(users, post.by))
          throw new DemoContentError(
            path("courses", c.slug, "content.json"),
            `"${a.name}".posts[${i}].by`,
            `unknown user "${post.by}"`,
          );
      a.children?.forEach(walk);
    };
    walk(c.root);
  }

  // Hub messages: a course with a hub, demo users as authors, instructors for announcements.
  for (const c of courses) {
    const file = path("courses", c.slug, "course.json");
    if (c.messages && !c.announcements)
      throw new DemoContentError(file, "messages", "the course has no communications hub: set announcements");
    for (const channel of ["announcements", "chat"] as const) {
      for (const [i, m] of (c.messages?.[channel] ?? []).entries()) {
        const author = Object.hasOwn(users, m.by) ? users[m.by] : null;
        if (!author) throw new DemoContentError(file, `messages.${channel}[${i}].by`, `unknown user "${m.by}"`);
        if (!mayPostIn(channel, author.roles))
          throw new DemoContentError(file, `messages.${channel}[${i}].by`, `${m.by} is no instructor`);
      }
    }
  }

  // SCORM packages: a course folder each, and a manifest the import takes.
  const scormDir = path("scorm");
  const packagesFile = join(scormDir, "packages.json");
  const scormPackages: DemoScormPackage[] = existsSync(packagesFile)
    ? readJson(packagesFile, scormPackagesSchema).map((p, i) => {
        if (!courses.some((c) => c.slug === p.course))
          throw new DemoContentError(packagesFile, `[${i}].course`, `unknown course folder "${p.course}"`);
        const manifestFile = join(scormDir, p.package, "imsmanifest.xml");
        if (!existsSync(manifestFile))
          throw new DemoContentError(packagesFile, `[${i}].package`, `${shortPath(manifestFile)} not found`);
        try {
          return { course: p.course, folder: p.package, manifest: parseManifest(readFileSync(manifestFile, "utf8")) };
        } catch (error) {
          throw new DemoContentError(manifestFile, "", (error as Error).message);
        }
      })
    : [];

  // Reinforcement questions: known courses and activities, a correct option that exists.
  const reinforcementFile = path("reinforcement.json");
  const reinforcement = existsSync(reinforcementFile) ? readJson(reinforcementFile, reinforcementFileSchema) : {};
  for (const [slug, questions] of Object.entries(reinforcement)) {
    const course = courses.find((c) => c.slug === slug);
    if (!course) throw new DemoContentError(reinforcementFile, slug, `unknown course "${slug}"`);
    const names = new Set<string>();
    const walk = (a: ActivityDef) => {
      names.add(a.name);
      a.children?.forEach(walk);
    };
    walk(course.root);
    questions.forEach((q, i) => {
      if (!names.has(q.activity))
        throw new DemoContentError(
          reinforcementFile,
          `${slug}[${i}].activity`,
          `no activity "${q.activity}" in ${slug}`,
        );
      if (q.correct >= q.options.length)
        throw new DemoContentError(reinforcementFile, `${slug}[${i}].correct`, `there are ${q.options.length} options`);
    });
  }

  // Learner recipes.
  const content: DemoContent = {
    tenant,
    password,
    users,
    gradingScales: catalog.gradingScales,
    collections: catalog.collections,
    terms: catalog.terms,
    filterCategories: catalog.filterCategories,
    courses,
    media,
    learners: {},
    reinforcement,
    scormPackages,
  };
  for (const name of listDir(path("learners"))) {
    const file = path("learners", name);
    const key = name.replace(/\.json$/, "");
    if (!name.endsWith(".json") || !Object.hasOwn(users, key))
      throw new DemoContentError(
        file,
        "",
        `not a demo user's recipe (users of users.json: ${Object.keys(users).join(", ")})`,
      );
    content.learners[key] = checkRecipe(content, readJson(file, learnerRecipeSchema), file);
  }
  return content;
}

/** The catalog's own checks (a scale's passing grade is one of its grades, attribute names unique): its attribute names. */
export function checkCatalog(
  file: string,
  catalog: Partial<Omit<z.output<typeof catalogSchema>, "courses">>,
): Set<string> {
  for (const [key, scale] of Object.entries(catalog.gradingScales ?? {})) {
    if (!scale.grades.some((g) => g.name === scale.passingGrade))
      throw new DemoContentError(
        file,
        `gradingScales.${key}.passingGrade`,
        `no grade is named "${scale.passingGrade}"`,
      );
  }
  const attributeNames = new Set<string>();
  for (const [category, attributes] of Object.entries(catalog.filterCategories ?? {})) {
    for (const [i, a] of attributes.entries()) {
      if (attributeNames.has(a))
        throw new DemoContentError(
          file,
          `filterCategories.${category}[${i}]`,
          `"${a}" is in two categories: a course lists attributes by name, so names must be unique`,
        );
      attributeNames.add(a);
    }
  }
  return attributeNames;
}

/** Every file of a media.json is there with the size it says; private files' paths are relative to `privateRoot`. */
export function checkMedia(file: string, media: Pick<Media, "files">, privateRoot: string): void {
  for (const [key, f] of Object.entries(media.files)) {
    const onDisk = "url" in f ? publicPath(f.url) : join(privateRoot, f.path);
    if ("path" in f && !isSafeEntryName(f.path))
      throw new DemoContentError(file, `files.${key}.path`, 'a path inside the folder (no "..", not absolute)');
    if (!existsSync(onDisk)) throw new DemoContentError(file, `files.${key}`, `${shortPath(onDisk)} not found`);
    if (statSync(onDisk).size !== f.size)
      throw new DemoContentError(
        file,
        `files.${key}.size`,
        `is ${f.size}, the file has ${statSync(onDisk).size} bytes`,
      );
  }
}

/**
 * One course folder (course.json, about.html, content.json, texts/): read, checked against the catalog's
 * keys and the media's files, and its tree expanded. The demo's loader and the course-folder import
 * (demo/course-folder/import.ts) both read folders with it.
 */
export function readCourseFolder(
  courseDir: string,
  slug: string,
  refs: {
    catalog: Partial<Omit<z.output<typeof catalogSchema>, "courses">>;
    attributeNames: Set<string>;
    media: Media;
    /** The catalog file the keys are looked up in (its name in the messages). */
    catalogName?: string;
  },
): CourseDef {
  const { catalog, attributeNames, media } = refs;
  const catalogName = refs.catalogName ?? "catalog.json";
  const file = join(courseDir, "course.json");
  const c = readJson(file, courseSchema);
  const fail = (field: string, message: string): never => {
    throw new DemoContentError(file, field, message);
  };
  const keys = (record: Record<string, unknown> | undefined) => Object.keys(record ?? {}).join(", ") || "none";
  c.collections.forEach((k, i) => {
    if (!Object.hasOwn(catalog.collections ?? {}, k))
      fail(
        `collections[${i}]`,
        `unknown collection "${k}" (collections of ${catalogName}: ${keys(catalog.collections)})`,
      );
  });
  c.attributes.forEach((a, i) => {
    if (!attributeNames.has(a))
      fail(
        `attributes[${i}]`,
        `unknown attribute "${a}" (filterCategories of ${catalogName}: ${[...attributeNames].join(", ") || "none"})`,
      );
  });
  if (c.gradingScale !== null && !Object.hasOwn(catalog.gradingScales ?? {}, c.gradingScale))
    fail(
      "gradingScale",
      `unknown grading scale "${c.gradingScale}" (gradingScales of ${catalogName}: ${keys(catalog.gradingScales)})`,
    );
  if (c.access?.term !== undefined && !Object.hasOwn(catalog.terms ?? {}, c.access.term))
    fail("access.term", `unknown term "${c.access.term}" (terms of ${catalogName}: ${keys(catalog.terms)})`);
  if (c.cover && !existsSync(join(PUBLIC_DIR, "covers", `${slug}.svg`)))
    fail("cover", `public/covers/${slug}.svg not found`);
  const about = readHtml(join(courseDir, "about.html"), file, "about.html");
  const contentFile = join(courseDir, "content.json");
  const raw = readJson(contentFile, rootSchema) as RawNode;
  if (raw.kind !== c.kind)
    throw new DemoContentError(
      contentFile,
      "kind",
      `the course is a ${Object.keys(ActivityKind).find((k) => ActivityKind[k as keyof typeof ActivityKind] === c.kind)} (course.json), its content's root is not`,
    );
  // The root is the course: its name and type are the course's (seed-activities.ts adds the rest).
  const root = expandNode({ ...raw, name: c.name, type: c.type }, { file: contentFile, field: "", courseDir, media });
  return { ...c, slug, about, root };
}

/**
 * Cross-checks a learner recipe against the content: known courses (by folder name or code, turned
 * into folder names), terms and files; an enrolment without an assignment needs a catalog access.
 * Used for the data files and for the test-support endpoint's requests alike.
 */
export function checkRecipe(content: DemoContent, recipe: LearnerRecipe, file: string): LearnerRecipe {
  const seen = new Set<string>();
  const enrolments = recipe.enrolments.map((e, i) => {
    const fail = (field: string, message: string): never => {
      throw new DemoContentError(file, `enrolments[${i}]${field ? `.${field}` : ""}`, message);
    };
    const course = courseByKey(content, e.course);
    if (!course) return fail("course", `unknown course "${e.course}" (a folder name under courses/ or a course code)`);
    if (seen.has(course.slug)) fail("course", `${course.slug} is listed twice`);
    seen.add(course.slug);
    if (e.assigned?.term !== undefined && !Object.hasOwn(content.terms, e.assigned.term))
      fail(
        "assigned.term",
        `unknown term "${e.assigned.term}" (terms of catalog.json: ${Object.keys(content.terms).join(", ")})`,
      );
    if (!e.assigned && !(course.inCatalog ?? true) && !course.isPublic)
      fail("assigned", `${course.slug} is neither in the catalog nor public: the enrolment must be assigned`);
    const scale = course.gradingScale === null ? null : content.gradingScales[course.gradingScale];
    for (const [j, a] of (e.attempts ?? []).entries()) {
      if (scale && a.score !== undefined && a.score !== null && a.score > scale.maxScore)
        fail(`attempts[${j}].score`, `above the maximum ${scale.maxScore} of the course's scale`);
      if (a.scorm)
        checkScormData(content, course, a, (field, message) => fail(`attempts[${j}].scorm${field}`, message));
    }
    if (e.certificatePdf && !existsSync(publicPath(e.certificatePdf)))
      fail("certificatePdf", `${e.certificatePdf} is not in public/`);
    return { ...e, course: course.slug };
  });
  const reinforcement = (recipe.reinforcement ?? []).map((r, i) => {
    const course = courseByKey(content, r.course);
    if (!course || !Object.hasOwn(content.reinforcement, course.slug))
      throw new DemoContentError(file, `reinforcement[${i}].course`, `no reinforcement questions for "${r.course}"`);
    if (!seen.has(course.slug))
      throw new DemoContentError(file, `reinforcement[${i}].course`, `${course.slug} is not among the enrolments`);
    return { ...r, course: course.slug };
  });
  return recipe.reinforcement ? { enrolments, reinforcement } : { enrolments };
}

/**
 * An attempt's SCORM data: the course holds a package, the attempt is in progress (a finished package
 * has nothing to resume), each SCO is one of the manifest's and each value one a commit could set.
 */
function checkScormData(
  content: DemoContent,
  course: CourseDef,
  attempt: AttemptDef,
  fail: (field: string, message: string) => never,
) {
  const pkg = content.scormPackages.find((p) => p.course === course.slug);
  if (!pkg) return fail("", `${course.slug} holds no SCORM package (scorm/packages.json)`);
  if (attempt.state !== ObjectiveWorkflowState.inProgress)
    fail("", "only an attempt in progress has SCORM data to resume");
  const scos = scormScos(pkg.manifest.items).map((item) => item.identifier);
  for (const [sco, cmi] of Object.entries(attempt.scorm ?? {})) {
    if (!scos.includes(sco)) fail(`.${sco}`, `no SCO "${sco}" in the package (its SCOs: ${scos.join(", ")})`);
    for (const [element, value] of Object.entries(cmi)) {
      const code = cmiValueError(pkg.manifest.version, element, value);
      if (code) fail(`.${sco}.${element}`, `SCORM ${pkg.manifest.version} refuses "${value}" (error ${code})`);
    }
  }
}

/** A course by its folder name or its code. */
function courseByKey(content: DemoContent, key: string): CourseDef | undefined {
  return content.courses.find((c) => c.slug === key) ?? content.courses.find((c) => c.code === key);
}

let cached: DemoContent | null = null;

/** The demo content, loaded and validated once per process. */
export function demoContent(): DemoContent {
  cached ??= loadDemoContent();
  return cached;
}

// `npx tsx demo/demo-content.ts`: checks the data files without seeding anything.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const content = loadDemoContent();
    const leaves = (def: ActivityDef): number =>
      (def.kind === ActivityKind.composite ? 0 : 1) + (def.children ?? []).reduce((n, c) => n + leaves(c), 0);
    console.log(
      `demo/data is valid: ${content.courses.length} courses with ${content.courses.reduce((n, c) => n + leaves(c.root), 0)} activities (modules aside), ` +
        `${Object.keys(content.users).length} users, recipes for ${Object.keys(content.learners).join(", ")}`,
    );
  } catch (error) {
    console.error(error instanceof DemoContentError ? error.message : error);
    process.exitCode = 1;
  }
}
