/**
 * Demo course catalog for the demo tenant (grading scales, collections, terms, filter categories,
 * ~40 courses, accesses, and the demo learners' enrolments, workflows and records).
 *
 * Content is fixed and deterministic; dates are relative to `now` so "due in 5 days" or
 * "finished 10 days ago" stay meaningful whenever the seed runs. Row ids are random uuids.
 * Idempotent: when the tenant already has the catalog's courses (matched by course code), it
 * inserts nothing and returns the existing slug → id map.
 *
 * Invariants kept by construction (and checked by seed-catalog.test.ts):
 * - an aggregate copies the enrolment settings of the access it points at;
 * - `lastWorkflowState` equals the state of the workflow `lastWorkflowId` points at (null if none);
 * - a record's normalizedScore = score / maxScore, its grade is the scale grade with the highest
 *   normalizedMinScore ≤ normalizedScore, passed = normalizedScore ≥ normalizedPassingScore
 *   (null when there is no score yet);
 * - workflow timestamps match the state (submitted from state 2 on, finished only at 6).
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { certificateExpiration, formatCertificateNumber } from "../../domain/certificates";
import type { Db } from "./client";
import * as s from "./schema";
import {
  ObjectiveState,
  ActivityKind,
  ActivityType,
  PresentationMode,
  ObjectiveWorkflowState,
  type GradeRevealPolicy,
  type DisplayMode,
} from "../../domain/vocabulary";

// ---------------------------------------------------------------------------------------------
// Reference data
// ---------------------------------------------------------------------------------------------

export type ScaleKey = "percent" | "passFail" | "points";

export const GRADING_SCALES: Record<
  ScaleKey,
  {
    name: string;
    description: string;
    maxScore: number;
    normalizedPassingScore: number;
    passingGrade: string;
    grades: { name: string; color: string; normalizedMinScore: number }[];
  }
> = {
  percent: {
    name: "Percent (pass 60%)",
    description: "Scores from 0 to 100; 60 or more passes.",
    maxScore: 100,
    normalizedPassingScore: 0.6,
    passingGrade: "C",
    grades: [
      { name: "F", color: "#D32F2F", normalizedMinScore: 0 },
      { name: "D", color: "#F57C00", normalizedMinScore: 0.4 },
      { name: "C", color: "#FBC02D", normalizedMinScore: 0.6 },
      { name: "B", color: "#7CB342", normalizedMinScore: 0.75 },
      { name: "A", color: "#2E7D32", normalizedMinScore: 0.9 },
    ],
  },
  passFail: {
    name: "Pass/Fail",
    description: "Completed successfully or not.",
    maxScore: 1,
    normalizedPassingScore: 0.5,
    passingGrade: "Pass",
    grades: [
      { name: "Fail", color: "#D32F2F", normalizedMinScore: 0 },
      { name: "Pass", color: "#2E7D32", normalizedMinScore: 0.5 },
    ],
  },
  points: {
    name: "Points 0–20",
    description: "Scores from 0 to 20 points; 10 or more passes.",
    maxScore: 20,
    normalizedPassingScore: 0.5,
    passingGrade: "Sufficient",
    grades: [
      { name: "Insufficient", color: "#D32F2F", normalizedMinScore: 0 },
      { name: "Sufficient", color: "#F9A825", normalizedMinScore: 0.5 },
      { name: "Good", color: "#43A047", normalizedMinScore: 0.7 },
      { name: "Excellent", color: "#1B5E20", normalizedMinScore: 0.85 },
    ],
  },
};

export const COLLECTIONS = {
  dataAi: "Data & AI",
  leadership: "Leadership",
  compliance: "Compliance",
  softwareEngineering: "Software Engineering",
  languages: "Languages",
} as const;
export type CollectionKey = keyof typeof COLLECTIONS;

export const TERMS = {
  spring2026: "Spring 2026",
  autumn2026: "Autumn 2026",
  spring2027: "Spring 2027",
  /** Referenced by no access or aggregate: the term filter must not list it. */
  archive: "Archive term (no courses)",
} as const;
export type TermKey = keyof typeof TERMS;

export const FILTER_CATEGORIES = {
  Level: ["Beginner", "Intermediate", "Advanced"],
  Format: ["Self-paced", "Instructor-led", "Blended"],
  Language: ["English", "Arabic", "German", "Japanese"],
} as const;
/** Attribute names are unique across the categories, so a course lists them by name. */
export type AttributeName = (typeof FILTER_CATEGORIES)[keyof typeof FILTER_CATEGORIES][number];

// ---------------------------------------------------------------------------------------------
// Courses
// ---------------------------------------------------------------------------------------------

/** Enrolment settings of an access, dates in days relative to `now` (negative = past). */
export interface AccessSettings {
  term?: TermKey;
  mandatory?: boolean;
  retake?: boolean;
  dueIn?: number;
  availableIn?: number;
  availableUntil?: number;
  reveal?: GradeRevealPolicy;
  revealIn?: number;
}

interface CourseDef {
  name: string;
  code: string;
  description: string;
  about: string;
  cover?: boolean;
  state: ObjectiveState;
  /** Root activity state; defaults to the course state. */
  activityState?: ObjectiveState;
  kind: ActivityKind;
  type: ActivityType;
  mode: PresentationMode;
  display?: DisplayMode;
  children: number;
  collections: CollectionKey[];
  attributes: AttributeName[];
  scale: ScaleKey | null;
  inCatalog?: boolean;
  isPublic?: boolean;
  allowSelfEnrollment?: boolean;
  proctored?: boolean;
  supportReview?: boolean;
  enableAiTutor?: boolean;
  supportLtiAuthoring?: boolean;
  supportMobileView?: boolean;
  supportFullscreenView?: boolean;
  accessNewContentAfterCompletion?: boolean;
  announcements?: boolean;
  /** Passing the course issues this certificate (validity in days; null = never expires). */
  certificate?: { name: string; validityDays: number | null };
  /** Default settings of the tenant-wide (catalog) access. */
  access?: AccessSettings;
}

const K = ActivityKind;
const T = ActivityType;
const M = PresentationMode;
const { draft, ready, expired, archived } = ObjectiveState;

const p = (...paragraphs: string[]) => paragraphs.map((x) => `<p>${x}</p>`).join("");
const ul = (...items: string[]) => `<ul>${items.map((x) => `<li>${x}</li>`).join("")}</ul>`;

const COURSES = {
  "python-basics": {
    name: "Python for Data Analysis",
    code: "PY-101",
    description:
      "Learn to load, clean and explore real data sets with Python, pandas and Jupyter notebooks. No prior programming experience is needed.",
    about:
      p("This course takes you from your first line of Python to a complete exploratory analysis.") +
      ul(
        "Variables, lists and dictionaries",
        "Reading CSV and Excel files with pandas",
        "Grouping, joining and plotting data",
      ) +
      p("Each module ends with a short graded exercise."),
    cover: true,
    state: ready,
    kind: K.composite,
    type: T.Composite,
    mode: M.Tree,
    children: 8,
    collections: ["dataAi", "softwareEngineering"],
    attributes: ["Beginner", "Self-paced", "English"],
    scale: "percent",
    isPublic: true,
    enableAiTutor: true,
    access: { term: "spring2026", retake: true, dueIn: 20, reveal: "afterFinish" },
  },
  "ml-intro": {
    name: "Introduction to Machine Learning",
    code: "ML-201",
    description: "Supervised and unsupervised learning in hosted JupyterLab notebooks.",
    about:
      p("Build, train and evaluate your first models: linear regression, decision trees and k-means clustering.") +
      p("The lab environment opens in a new tab; your notebooks are saved automatically."),
    cover: true,
    state: ready,
    kind: K.lti,
    type: T.JupyterLabs,
    mode: M.Tree,
    display: 1,
    children: 1,
    collections: ["dataAi"],
    attributes: ["Intermediate", "Self-paced", "English"],
    scale: "percent",
    isPublic: true,
    enableAiTutor: true,
    certificate: { name: "Machine Learning Foundations Certificate", validityDays: 730 },
    access: { term: "spring2026", retake: true, reveal: "afterFinish" },
  },
  "ml-arabic": {
    name: "مقدمة في تعلم الآلة",
    code: "ML-AR1",
    description:
      "دورة تمهيدية باللغة العربية تشرح المفاهيم الأساسية لتعلم الآلة وتطبيقاتها العملية في المؤسسات، مع أمثلة وتمارين قصيرة.",
    about:
      p("ستتعرف في هذه الدورة على أنواع التعلم الآلي وكيفية تقييم النماذج.") +
      ul("التعلم الموجّه", "التعلم غير الموجّه", "تقييم النماذج"),
    cover: true,
    state: ready,
    kind: K.composite,
    type: T.Composite,
    mode: M.LongRead,
    children: 6,
    collections: ["dataAi"],
    attributes: ["Beginner", "Blended", "Arabic"],
    scale: "percent",
    isPublic: true,
  },
  "data-viz": {
    name: "Data Visualisation with D3.js",
    code: "DV-210",
    description: "Turn numbers into interactive charts for the web.",
    about: p("Scales, axes, transitions and accessible colour palettes, one chart per module."),
    state: ready,
    kind: K.composite,
    type: T.Composite,
    mode: M.Tiles,
    children: 5,
    collections: ["dataAi"],
    attributes: ["Intermediate", "Self-paced", "English"],
    scale: "points",
    access: { term: "spring2026", dueIn: 3 },
  },
  "sql-fundamentals": {
    name: "SQL Fundamentals",
    code: "DB-110",
    description:
      "Write queries that select, filter, join and aggregate data in a relational database, then design a small schema of your own.",
    about:
      p("Practise on a sample sales database right in the browser.") +
      ul("SELECT and WHERE", "JOINs", "GROUP BY and window functions"),
    cover: true,
    state: ready,
    kind: K.composite,
    type: T.Composite,
    mode: M.LongReadWithoutActivityNames,
    children: 7,
    collections: ["dataAi", "softwareEngineering"],
    attributes: ["Beginner", "Self-paced", "English"],
    scale: "percent",
    isPublic: true,
    certificate: { name: "SQL Fundamentals Certificate", validityDays: 365 },
    access: { reveal: "afterDate", revealIn: -5, retake: true },
  },
  "deep-learning": {
    name: "Deep Learning Specialisation: Convolutional Networks, Sequence Models and Transformers in Practice for Production Systems at Scale with PyTorch",
    code: "DL-400",
    description:
      "An in-depth programme for engineers who already train models and want to ship deep learning systems: architectures, training at scale, evaluation and deployment.",
    about:
      p("Twelve modules, each with a lab and a graded project.") +
      ul(
        "Convolutional networks for vision",
        "Recurrent networks and attention",
        "Transformers and fine-tuning",
        "Serving and monitoring models",
      ),
    cover: true,
    state: ready,
    kind: K.composite,
    type: T.Composite,
    mode: M.Tree,
    children: 12,
    collections: ["dataAi"],
    attributes: ["Advanced", "Self-paced", "English"],
    scale: "percent",
    enableAiTutor: true,
  },
  "ai-ethics": {
    name: "Responsible AI and Ethics",
    code: "AI-150",
    description: "Fairness, transparency and accountability when building and buying AI systems.",
    about: p("Case studies from hiring, lending and healthcare, and the regulation that now applies to them."),
    state: ready,
    kind: K.composite,
    type: T.Composite,
    mode: M.Tiles,
    children: 4,
    collections: ["dataAi", "compliance"],
    attributes: ["Intermediate", "Blended", "English"],
    scale: "passFail",
    access: { reveal: "never" },
  },
  "stats-refresher": {
    name: "Statistics Refresher",
    code: "ST-100",
    description: "Means, variance and distributions in one read.",
    about: p("A single reading on the statistics you need for the data courses."),
    state: ready,
    kind: K.text,
    type: T.RichText,
    mode: M.Tree,
    children: 0,
    collections: ["dataAi"],
    attributes: ["Beginner", "Self-paced", "English"],
    scale: null,
  },
  "leading-teams": {
    name: "Leading High-Performing Teams",
    code: "LD-201",
    description:
      "A two-day instructor-led workshop on trust, delegation and running effective one-to-ones. Seats are assigned by HR.",
    about:
      p("Held in person at the London office.") +
      ul("Day 1: trust and psychological safety", "Day 2: delegation and feedback"),
    cover: true,
    state: ready,
    kind: K.event,
    type: T.Classroom,
    mode: M.Tree,
    children: 0,
    collections: ["leadership"],
    attributes: ["Intermediate", "Instructor-led", "English"],
    scale: "passFail",
    allowSelfEnrollment: false,
    certificate: { name: "Team Leadership Workshop", validityDays: null },
    access: { term: "autumn2026" },
  },
  "feedback-conversations": {
    name: "Giving and Receiving Feedback",
    code: "LD-110",
    description: "Short videos on feedback that helps.",
    about: p("Five short videos with reflection questions after each one."),
    state: ready,
    kind: K.video,
    type: T.PublicFiles,
    mode: M.LongRead,
    children: 3,
    collections: ["leadership"],
    attributes: ["Beginner", "Self-paced", "English"],
    scale: "percent",
  },
  "strategic-thinking": {
    name: "Strategic Thinking for Managers",
    code: "LD-310",
    description:
      "Frameworks for setting direction, making trade-offs and communicating strategy to your team and stakeholders.",
    about: p("Enrolment for this cohort has closed; enrolled learners can still review their work."),
    cover: true,
    state: ready,
    kind: K.composite,
    type: T.Composite,
    mode: M.Tiles,
    children: 6,
    collections: ["leadership"],
    attributes: ["Advanced", "Blended", "English"],
    scale: "percent",
    access: { availableIn: -60, availableUntil: -10 },
  },
  "leadership-arabic": {
    name: "أساسيات القيادة الفعالة",
    code: "LD-AR2",
    description: "مهارات القيادة الأساسية للمديرين الجدد.",
    about: p("ورشة عمل تفاعلية حول التواصل وبناء الفريق واتخاذ القرار."),
    state: ready,
    kind: K.composite,
    type: T.Composite,
    mode: M.LongRead,
    children: 5,
    collections: ["leadership", "languages"],
    attributes: ["Beginner", "Instructor-led", "Arabic"],
    scale: "passFail",
    isPublic: true,
  },
  "coaching-skills": {
    name: "Coaching Skills Workshop",
    code: "LD-220",
    description: "Practise coaching conversations in a moderated discussion group with peers from other departments.",
    about: p("Post your coaching scenario, respond to two peers, and reflect on what you learned."),
    cover: true,
    state: ready,
    kind: K.discussion,
    type: T.ClassDiscussion,
    mode: M.Tree,
    children: 0,
    collections: ["leadership"],
    attributes: ["Intermediate", "Instructor-led", "English"],
    scale: null,
  },
  "new-manager": {
    name: "New Manager Essentials",
    code: "LD-101",
    description: "Your first 90 days as a people manager.",
    about: p("Coming in the autumn."),
    cover: true,
    state: draft,
    kind: K.composite,
    type: T.Composite,
    mode: M.Tree,
    children: 4,
    collections: ["leadership"],
    attributes: ["Beginner", "Blended", "English"],
    scale: "percent",
  },
  "project-management": {
    name: "Project Management Fundamentals",
    code: "PM-101",
    description:
      "Plan, run and close projects of any size with a practical toolkit of schedules, risk logs and status reports.",
    about:
      p("A SCORM package with interactive scenarios.") + ul("Scope and stakeholders", "Scheduling", "Risk and change"),
    cover: true,
    state: ready,
    kind: K.lti,
    type: T.Scorm,
    mode: M.Tree,
    display: 3,
    children: 1,
    collections: ["leadership"],
    attributes: ["Beginner", "Self-paced", "English"],
    scale: "percent",
    isPublic: true,
  },
  negotiation: {
    name: "Negotiation Masterclass",
    code: "NG-300",
    description: "Prepare, anchor and close negotiations.",
    about: p("The course content is being reworked; its root activity is archived."),
    state: ready,
    activityState: archived,
    kind: K.composite,
    type: T.Composite,
    mode: M.Tiles,
    children: 5,
    collections: ["leadership"],
    attributes: ["Advanced", "Instructor-led", "English"],
    scale: "percent",
  },
  "info-security": {
    name: "Information Security Awareness 2026",
    code: "IS-026",
    description:
      "The yearly security awareness course: phishing, passwords, safe remote working and how to report an incident.",
    about:
      p("Required for every employee once a year.") +
      ul("Recognising phishing", "Passwords and multi-factor sign-in", "Reporting incidents"),
    cover: true,
    state: ready,
    kind: K.lti,
    type: T.Scorm,
    mode: M.Tree,
    children: 1,
    collections: ["compliance"],
    attributes: ["Beginner", "Self-paced", "English"],
    scale: "passFail",
    access: { retake: true },
  },
  "gdpr-essentials": {
    name: "GDPR and Data Protection Essentials",
    code: "GD-101",
    description: "What personal data is and how to handle it lawfully.",
    about: p("Results of this course were imported from the previous learning system."),
    state: ready,
    kind: K.composite,
    type: T.Composite,
    mode: M.LongRead,
    children: 4,
    collections: ["compliance"],
    attributes: ["Beginner", "Self-paced", "English"],
    scale: "percent",
  },
  "anti-bribery": {
    name: "Anti-Bribery and Corruption",
    code: "AB-101",
    description:
      "Gifts, hospitality and conflicts of interest: the rules that apply to everyone working with customers or suppliers.",
    about: p("Assigned by Compliance; not listed in the catalog."),
    cover: true,
    state: ready,
    kind: K.lti,
    type: T.Scorm,
    mode: M.Tree,
    children: 1,
    collections: ["compliance"],
    attributes: ["Beginner", "Self-paced", "English"],
    scale: "passFail",
    inCatalog: false,
  },
  "workplace-safety": {
    name: "Arbeitssicherheit im Büro: Grundlagen für alle Mitarbeitenden",
    code: "AS-DE1",
    description: "Pflichtunterweisung zu Ergonomie, Brandschutz und Erster Hilfe am Arbeitsplatz.",
    about:
      p("Die jährliche Sicherheitsunterweisung.") +
      ul("Ergonomie am Bildschirmarbeitsplatz", "Brandschutz und Fluchtwege", "Erste Hilfe"),
    cover: true,
    state: ready,
    kind: K.composite,
    type: T.Composite,
    mode: M.LongReadWithoutActivityNames,
    children: 5,
    collections: ["compliance", "languages"],
    attributes: ["Beginner", "Self-paced", "German"],
    scale: "percent",
  },
  "code-of-conduct": {
    name: "Code of Conduct 2025",
    code: "CC-025",
    description: "Last year's code of conduct.",
    about: p("Replaced by the 2026 edition."),
    state: expired,
    kind: K.text,
    type: T.RichText,
    mode: M.Tree,
    children: 0,
    collections: ["compliance"],
    attributes: ["Beginner", "Self-paced", "English"],
    scale: null,
  },
  "harassment-prevention": {
    name: "Preventing Harassment at Work",
    code: "HP-101",
    description: "Recognise, prevent and report harassment; what managers must do when a concern is raised.",
    about:
      p("Video scenarios followed by a short quiz. Review of answers is switched off for this course.") +
      `<img src="x" onerror="alert('xss')" alt="">` +
      p("Contact HR with any questions."),
    state: ready,
    kind: K.video,
    type: T.PublicFiles,
    mode: M.Tree,
    children: 0,
    collections: ["compliance"],
    attributes: ["Beginner", "Self-paced", "English"],
    scale: "passFail",
    supportReview: false,
  },
  "typescript-deep-dive": {
    name: "TypeScript Deep Dive",
    code: "TS-301",
    description:
      "Generics, conditional and mapped types, and strict compiler settings, practised in a hosted coding lab with automatic grading.",
    about:
      p("Each exercise runs against a hidden test suite.") + ul("Generics", "Conditional types", "Declaration files"),
    cover: true,
    state: ready,
    kind: K.lti,
    type: T.CodingLabs,
    mode: M.Tree,
    display: 1,
    children: 1,
    collections: ["softwareEngineering"],
    attributes: ["Advanced", "Self-paced", "English"],
    scale: "percent",
    isPublic: true,
    enableAiTutor: true,
    supportLtiAuthoring: true,
    access: { term: "autumn2026" },
  },
  "git-workflows": {
    name: "Git Workflows for Teams",
    code: "GT-120",
    description: "Branching, rebasing and reviewing code together.",
    about: p("Trunk-based development, feature branches and pull-request etiquette."),
    state: ready,
    kind: K.composite,
    type: T.Composite,
    mode: M.Tiles,
    children: 4,
    collections: ["softwareEngineering"],
    attributes: ["Intermediate", "Self-paced", "English"],
    scale: "percent",
    access: { retake: true },
  },
  "secure-coding": {
    name: "Secure Coding Practices",
    code: "SC-240",
    description: "Find and fix the OWASP Top 10 in a virtual lab with a deliberately vulnerable web application.",
    about:
      p("Exploit, then patch: injection, broken access control and more.") +
      `<script>alert("this must never run")</script>` +
      p("Graded on a 20-point scale."),
    cover: true,
    state: ready,
    kind: K.lti,
    type: T.VirtualLabs,
    mode: M.Tree,
    display: 1,
    children: 1,
    collections: ["softwareEngineering", "compliance"],
    attributes: ["Intermediate", "Blended", "English"],
    scale: "points",
  },
  "cloud-architecture": {
    name: "Cloud Architecture on AWS",
    code: "CL-330",
    description: "Design resilient, cost-aware systems on AWS. Places are limited and assigned by your manager.",
    about:
      p("Hands-on labs in a sandbox AWS account.") +
      ul("Networking and VPCs", "Storage and databases", "Observability"),
    state: ready,
    kind: K.lti,
    type: T.VirtualLabs,
    mode: M.Tree,
    children: 1,
    collections: ["softwareEngineering"],
    attributes: ["Advanced", "Instructor-led", "English"],
    scale: "percent",
    allowSelfEnrollment: false,
  },
  "testing-strategies": {
    name: "Testing Strategies: Unit, Integration and End-to-End",
    code: "QA-210",
    description:
      "Choose the right tests for each layer and keep the suite fast and trustworthy as the code base grows.",
    about: p("The final assignment is marked by an instructor."),
    cover: true,
    state: ready,
    kind: K.composite,
    type: T.Composite,
    mode: M.LongRead,
    children: 6,
    collections: ["softwareEngineering"],
    attributes: ["Intermediate", "Self-paced", "English"],
    scale: "percent",
  },
  "kubernetes-ops": {
    name: "Kubernetes Operations",
    code: "K8-300",
    description: "Run and troubleshoot workloads on Kubernetes.",
    about: p("This edition has expired; a new one is in preparation."),
    state: expired,
    kind: K.lti,
    type: T.VirtualLabs,
    mode: M.Tree,
    children: 1,
    collections: ["softwareEngineering"],
    attributes: ["Advanced", "Blended", "English"],
    scale: "percent",
  },
  "legacy-cobol": {
    name: "COBOL Maintenance (retired)",
    code: "CB-090",
    description: "Maintaining the old billing system.",
    about: p("Archived when the billing system was replaced."),
    state: archived,
    kind: K.composite,
    type: T.Composite,
    mode: M.Tree,
    children: 3,
    collections: ["softwareEngineering"],
    attributes: ["Advanced", "Self-paced", "English"],
    scale: "percent",
  },
  capstone: {
    name: "Capstone Project: Analytics Portfolio",
    code: "CP-500",
    description: "Submit a portfolio of three analyses for review by an instructor. Enrolment is by application only.",
    about: p("Your submission is graded on a 20-point scale within two weeks."),
    cover: true,
    state: ready,
    kind: K.lti,
    type: T.Assignment,
    mode: M.Tree,
    children: 1,
    collections: ["dataAi"],
    attributes: ["Advanced", "Blended", "English"],
    scale: "points",
    allowSelfEnrollment: false,
    access: { term: "autumn2026", dueIn: -1 },
  },
  "japanese-business": {
    name: "ビジネス日本語入門",
    code: "JP-101",
    description: "日本の職場で使う基本的なビジネス日本語を学びます。",
    about: p("敬語、メール、電話応対の基本を練習します。"),
    cover: true,
    state: ready,
    kind: K.composite,
    type: T.Composite,
    mode: M.LongRead,
    children: 8,
    collections: ["languages"],
    attributes: ["Beginner", "Instructor-led", "Japanese"],
    scale: "percent",
    isPublic: true,
  },
  "business-english": {
    name: "Business English Writing",
    code: "EN-210",
    description: "Clear e-mails, reports and proposals in plain English.",
    about: p("A reading list with model texts and checklists."),
    state: ready,
    kind: K.text,
    type: T.RichText,
    mode: M.Tiles,
    children: 0,
    collections: ["languages"],
    attributes: ["Intermediate", "Self-paced", "English"],
    scale: null,
  },
  "arabic-beginners": {
    name: "Arabic for Beginners",
    code: "AR-101",
    description:
      "The alphabet, greetings and everyday phrases, with audio from native speakers and weekly live practice sessions.",
    about: p("Learn to read and write the Arabic script from the first lesson."),
    cover: true,
    state: ready,
    kind: K.composite,
    type: T.Composite,
    mode: M.Tiles,
    children: 6,
    collections: ["languages"],
    attributes: ["Beginner", "Blended", "Arabic"],
    scale: "percent",
    isPublic: true,
  },
  "spanish-conversation": {
    name: "Spanish Conversation Club",
    code: "ES-120",
    description: "Weekly discussion threads in Spanish.",
    about: p("Opens with the spring 2027 term."),
    state: ready,
    kind: K.discussion,
    type: T.ClassDiscussion,
    mode: M.Tree,
    children: 0,
    collections: ["languages"],
    attributes: ["Intermediate", "Instructor-led", "English"],
    scale: null,
    access: { term: "spring2027", availableIn: 5 },
  },
  "german-a1": {
    name: "German A1: Everyday Conversations",
    code: "DE-101",
    description:
      "Introduce yourself, order food and ask for directions in German, with speaking practice in every unit.",
    about: p("Ten short units aligned with the CEFR A1 level."),
    cover: true,
    state: ready,
    kind: K.composite,
    type: T.Composite,
    mode: M.LongReadWithoutActivityNames,
    children: 10,
    collections: ["languages"],
    attributes: ["Beginner", "Blended", "German"],
    scale: "percent",
    access: { term: "spring2027" },
  },
  onboarding: {
    name: "Welcome to Northwind",
    code: "ON-100",
    description: "Everything you need in your first week.",
    about:
      p("Follow the announcements channel for onboarding news.") +
      ul("Our history and values", "Tools and accounts", "Who to ask"),
    cover: true,
    state: ready,
    kind: K.lti,
    type: T.Scorm,
    mode: M.Tree,
    children: 1,
    collections: [],
    attributes: ["Beginner", "Self-paced", "English"],
    scale: null,
    isPublic: true,
    announcements: true,
  },
  "excel-archived": {
    name: "Excel 2010 for Power Users",
    code: "XL-010",
    description: "Pivot tables and macros in Excel 2010.",
    about: p("Archived."),
    state: archived,
    kind: K.composite,
    type: T.Composite,
    mode: M.Tree,
    children: 4,
    collections: [],
    attributes: ["Intermediate", "Self-paced", "English"],
    scale: "percent",
  },
  "learning-survey": {
    name: "Quarterly Learning Survey",
    code: "SV-226",
    description: "Tell us what to teach next.",
    about: p("Ten questions, about five minutes."),
    state: ready,
    kind: K.lti,
    type: T.Survey,
    mode: M.Tree,
    display: 2,
    children: 1,
    collections: [],
    attributes: ["Beginner", "Self-paced", "English"],
    scale: null,
    supportMobileView: false,
  },
  "design-thinking": {
    name: "Design Thinking Sprint",
    code: "DT-200",
    description: "A five-day sprint from problem framing to a tested prototype, facilitated on site.",
    about: p("Dates will be announced soon."),
    cover: true,
    state: draft,
    kind: K.event,
    type: T.Classroom,
    mode: M.Tree,
    children: 0,
    collections: [],
    attributes: ["Intermediate", "Instructor-led", "English"],
    scale: null,
  },
  "physics-lab": {
    name: "Physics Lab Simulations",
    code: "PH-150",
    description: "Interactive STEM simulations on mechanics and optics.",
    about: p("Runs in the browser; no installation needed."),
    state: ready,
    kind: K.lti,
    type: T.Stem,
    mode: M.Tree,
    display: 3,
    children: 1,
    collections: [],
    attributes: ["Intermediate", "Self-paced", "English"],
    scale: "percent",
    supportFullscreenView: false,
  },
  "board-papers": {
    name: "Board Papers Reading Room",
    code: "BP-100",
    description: "Confidential reading for board members.",
    about: p("Not available to learners: no access is granted."),
    state: ready,
    kind: K.text,
    type: T.PrivateFiles,
    mode: M.Tree,
    children: 0,
    collections: [],
    attributes: ["Advanced", "Self-paced", "English"],
    scale: null,
    inCatalog: false,
  },
  "cyber-exam": {
    name: "Cyber Security Certification Exam",
    code: "CS-EXM",
    description:
      "A proctored 90-minute exam. Your webcam and screen are recorded; results are released one week after the exam window closes.",
    about:
      p("You need a quiet room, a webcam and a government-issued ID.") +
      ul("60 multiple-choice questions", "Pass mark 60%"),
    cover: true,
    state: ready,
    kind: K.lti,
    type: T.Assessment,
    mode: M.Tree,
    display: 1,
    children: 1,
    collections: ["compliance", "softwareEngineering"],
    attributes: ["Advanced", "Self-paced", "English"],
    scale: "percent",
    proctored: true,
    certificate: { name: "Certified Cyber Security Practitioner", validityDays: 730 },
    access: { reveal: "afterDate", revealIn: 7 },
  },
  "privacy-exam": {
    name: "Data Protection Officer Certification Exam",
    code: "DP-EXM",
    description:
      "A proctored two-hour exam for data protection officers, assigned by Compliance. Your webcam and screen are recorded.",
    about:
      p("The exam opens in the assessment tool. Once the proctored session has ended it cannot be resumed.") +
      ul("80 questions on GDPR and national law", "Pass mark 60%"),
    state: ready,
    kind: K.lti,
    type: T.Assessment,
    mode: M.Tree,
    display: 1,
    children: 1,
    collections: ["compliance"],
    attributes: ["Advanced", "Self-paced", "English"],
    scale: "percent",
    inCatalog: false,
    proctored: true,
    certificate: { name: "Certified Data Protection Officer", validityDays: 730 },
  },
  "mentoring-circle": {
    name: "Mentoring Circle",
    code: "MC-100",
    description: "Monthly small-group mentoring sessions.",
    about: p("Groups of six meet once a month with a senior mentor."),
    state: ready,
    kind: K.event,
    type: T.None,
    mode: M.Tree,
    children: 0,
    collections: ["leadership"],
    attributes: ["Intermediate", "Instructor-led", "English"],
    scale: null,
    accessNewContentAfterCompletion: true,
  },
} satisfies Record<string, CourseDef>;

export type CatalogSlug = keyof typeof COURSES;
export const CATALOG_SLUGS = Object.keys(COURSES) as CatalogSlug[];
const COURSE_DEFS: Record<CatalogSlug, CourseDef> = COURSES;

/** Course codes by slug: the stable key used to find the catalog again (idempotency). */
export const CATALOG_CODES: Record<CatalogSlug, string> = Object.fromEntries(
  CATALOG_SLUGS.map((slug) => [slug, COURSE_DEFS[slug].code]),
) as Record<CatalogSlug, string>;

/** Slugs of the courses with a cover at /learn/covers/<slug>.svg. */
export const COVER_SLUGS: CatalogSlug[] = CATALOG_SLUGS.filter((slug) => COURSE_DEFS[slug].cover);

export const coverUrl = (slug: string): string => `/learn/covers/${slug}.svg`;

// ---------------------------------------------------------------------------------------------
// Enrolments
// ---------------------------------------------------------------------------------------------

export type DemoUser = "ada" | "grace" | "admin" | "rita";

interface AttemptDef {
  state: ObjectiveWorkflowState;
  progress: number;
  startedAgo: number;
  submittedAgo?: number;
  finishedAgo?: number;
  /** Raw score on the scale's maxScore; null/undefined = no score yet (unresolved). */
  score?: number | null;
}

interface EnrolmentDef {
  user: DemoUser;
  slug: CatalogSlug;
  /** Set: a per-user access (an assignment) with these settings instead of the catalog access. */
  assigned?: AccessSettings;
  selfEnrolled?: boolean;
  /** Oldest first; the last one is the current workflow. */
  attempts?: AttemptDef[];
  /** A record without a workflow (results imported from another system). */
  imported?: { score: number; finishedAgo: number };
  /** The PDF of this learner's certificates for the course (a demo file under public/demo). */
  certificatePdf?: string;
}

/** The demo certificate PDF written by make-demo-pdf.ts (ada's SQL Fundamentals certificate). */
export const DEMO_CERTIFICATE_PDF = { url: "/learn/demo/certificate-sql-fundamentals.pdf" } as const;

const W = ObjectiveWorkflowState;

const ENROLMENTS: EnrolmentDef[] = [
  // --- ada: not started ---
  { user: "ada", slug: "spanish-conversation", selfEnrolled: true }, // future availabilityDate, Spring 2027
  { user: "ada", slug: "info-security", assigned: { mandatory: true, dueIn: 14, retake: true } }, // due date
  { user: "ada", slug: "anti-bribery", assigned: { mandatory: true, dueIn: -3 } }, // overdue
  { user: "ada", slug: "git-workflows", selfEnrolled: true }, // neither date
  { user: "ada", slug: "strategic-thinking", selfEnrolled: true }, // availabilityEndDate passed, no workflow
  // --- ada: in progress ---
  {
    user: "ada",
    slug: "python-basics",
    selfEnrolled: true,
    attempts: [{ state: W.inProgress, progress: 0.35, startedAgo: 6 }],
  },
  {
    user: "ada",
    slug: "workplace-safety",
    assigned: { mandatory: true, dueIn: 5, term: "spring2026" },
    attempts: [{ state: W.inProgress, progress: 0.8, startedAgo: 12 }],
  },
  // --- ada: submitted / in grading / graded / grading approved ---
  {
    user: "ada",
    slug: "data-viz",
    selfEnrolled: true,
    attempts: [{ state: W.submitted, progress: 1, startedAgo: 20, submittedAgo: 1 }],
  },
  { user: "ada", slug: "capstone", attempts: [{ state: W.inGrading, progress: 1, startedAgo: 30, submittedAgo: 4 }] },
  {
    user: "ada",
    slug: "secure-coding",
    selfEnrolled: true,
    attempts: [{ state: W.graded, progress: 1, startedAgo: 25, submittedAgo: 8, score: 15 }],
  },
  {
    user: "ada",
    slug: "feedback-conversations",
    selfEnrolled: true,
    attempts: [{ state: W.gradingApproved, progress: 1, startedAgo: 18, submittedAgo: 6, score: 82 }],
  },
  // --- ada: finished ---
  {
    // Certified a year ago (that certificate has expired) and again three weeks ago.
    user: "ada",
    slug: "sql-fundamentals",
    selfEnrolled: true,
    certificatePdf: DEMO_CERTIFICATE_PDF.url,
    attempts: [
      { state: W.finished, progress: 1, startedAgo: 420, submittedAgo: 401, finishedAgo: 400, score: 81 },
      { state: W.finished, progress: 1, startedAgo: 40, submittedAgo: 21, finishedAgo: 20, score: 88 },
    ],
  },
  {
    user: "ada",
    slug: "ml-intro",
    selfEnrolled: true,
    attempts: [
      { state: W.finished, progress: 1, startedAgo: 60, submittedAgo: 46, finishedAgo: 45, score: 45 },
      { state: W.finished, progress: 1, startedAgo: 30, submittedAgo: 11, finishedAgo: 10, score: 52 },
    ],
  },
  {
    user: "ada",
    slug: "testing-strategies",
    selfEnrolled: true,
    attempts: [{ state: W.finished, progress: 1, startedAgo: 15, submittedAgo: 3, finishedAgo: 2, score: null }],
  },
  {
    user: "ada",
    slug: "cyber-exam",
    selfEnrolled: true,
    attempts: [{ state: W.finished, progress: 1, startedAgo: 9, submittedAgo: 7, finishedAgo: 7, score: 78 }],
  },
  {
    user: "ada",
    slug: "ai-ethics",
    selfEnrolled: true,
    attempts: [{ state: W.finished, progress: 1, startedAgo: 50, submittedAgo: 35, finishedAgo: 35, score: 1 }],
  },
  // --- ada: imported result (record, no workflow), mandatory ---
  {
    user: "ada",
    slug: "gdpr-essentials",
    assigned: { mandatory: true, dueIn: -30 },
    imported: { score: 95, finishedAgo: 120 },
  },
  // --- ada: hidden from lists (archived course; ready course whose root activity is archived) ---
  {
    user: "ada",
    slug: "legacy-cobol",
    selfEnrolled: true,
    attempts: [{ state: W.finished, progress: 1, startedAgo: 400, submittedAgo: 380, finishedAgo: 380, score: 91 }],
  },
  {
    user: "ada",
    slug: "negotiation",
    selfEnrolled: true,
    attempts: [{ state: W.inProgress, progress: 0.2, startedAgo: 3 }],
  },
  // --- ada: a proctored exam whose proctored session has ended before she submitted (spec 4.8 lock; seed-activities.ts) ---
  { user: "ada", slug: "privacy-exam", assigned: {}, attempts: [{ state: W.inProgress, progress: 0, startedAgo: 1 }] },
  // --- grace ---
  {
    user: "grace",
    slug: "python-basics",
    selfEnrolled: true,
    attempts: [{ state: W.inProgress, progress: 0.5, startedAgo: 4 }],
  },
  {
    user: "grace",
    slug: "leading-teams",
    attempts: [{ state: W.finished, progress: 1, startedAgo: 70, submittedAgo: 68, finishedAgo: 68, score: 1 }],
  },
  { user: "grace", slug: "ml-intro", selfEnrolled: true },
  // --- admin ---
  {
    user: "admin",
    slug: "sql-fundamentals",
    selfEnrolled: true,
    attempts: [{ state: W.inProgress, progress: 0.1, startedAgo: 1 }],
  },
];

// ---------------------------------------------------------------------------------------------
// Helpers shared with seed-big.ts
// ---------------------------------------------------------------------------------------------

/** A drizzle transaction on the demo database. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface ScaleForGrading {
  maxScore: number;
  normalizedPassingScore: number;
  grades: { id: string; normalizedMinScore: number }[];
}

/**
 * The record fields for a raw score on a scale: normalizedScore = score / maxScore, the grade with the
 * highest normalizedMinScore ≤ normalizedScore, passed = normalizedScore ≥ normalizedPassingScore.
 * A null score (or no scale) gives an unresolved record (passed null).
 */
export function gradeScore(
  scale: ScaleForGrading | null,
  score: number | null,
): {
  score: number | null;
  maxScore: number | null;
  normalizedScore: number | null;
  gradeId: string | null;
  passed: boolean | null;
} {
  if (!scale) return { score: null, maxScore: null, normalizedScore: null, gradeId: null, passed: null };
  if (score === null)
    return { score: null, maxScore: scale.maxScore, normalizedScore: null, gradeId: null, passed: null };
  const normalizedScore = score / scale.maxScore;
  let best: { id: string; normalizedMinScore: number } | null = null;
  for (const g of scale.grades)
    if (g.normalizedMinScore <= normalizedScore && (!best || g.normalizedMinScore > best.normalizedMinScore)) best = g;
  return {
    score,
    maxScore: scale.maxScore,
    normalizedScore,
    gradeId: best?.id ?? null,
    passed: normalizedScore >= scale.normalizedPassingScore,
  };
}

const DAY_MS = 86_400_000;

/** `now` shifted by a number of days (negative = past); null for undefined. */
export function daysFrom(now: Date, days: number | undefined): Date | null {
  return days === undefined ? null : new Date(now.getTime() + days * DAY_MS);
}

/** The enrolment columns shared by accesses and aggregates. */
function accessColumns(settings: AccessSettings | undefined, now: Date, termIds: Record<TermKey, string>) {
  const a = settings ?? {};
  return {
    termId: a.term ? termIds[a.term] : null,
    isMandatory: a.mandatory ?? false,
    retake: a.retake ?? false,
    dueDate: daysFrom(now, a.dueIn),
    availabilityDate: daysFrom(now, a.availableIn),
    availabilityEndDate: daysFrom(now, a.availableUntil),
    gradeRevealPolicy: a.reveal ?? "none",
    gradeRevealDate: daysFrom(now, a.revealIn),
  };
}

/** Finds the catalog courses of a tenant by code; empty when the catalog is not seeded. */
export async function findCatalog(db: Db | Tx, tenantId: string): Promise<Partial<Record<CatalogSlug, string>>> {
  const rows = await (db as Db)
    .select({ id: s.objectives.id, code: s.objectives.code })
    .from(s.objectives)
    .where(and(eq(s.objectives.tenantId, tenantId), inArray(s.objectives.code, Object.values(CATALOG_CODES))));
  const byCode = new Map(rows.map((r) => [r.code, r.id]));
  const out: Partial<Record<CatalogSlug, string>> = {};
  for (const slug of CATALOG_SLUGS) {
    const id = byCode.get(CATALOG_CODES[slug]);
    if (id) out[slug] = id;
  }
  return out;
}

/**
 * The `now` a tenant's catalog was seeded with (null when it is not seeded), read back from the
 * due date of python-basics' catalog access. Tests that did not seed the catalog themselves (seedDemo
 * seeds it with the real clock) compare relative dates against this.
 */
export async function catalogSeededAt(db: Db | Tx, tenantId: string): Promise<Date | null> {
  const slug = "python-basics" satisfies CatalogSlug;
  const dueIn = COURSE_DEFS[slug].access?.dueIn;
  if (dueIn === undefined) return null;
  const [row] = await (db as Db)
    .select({ dueDate: s.objectiveAccesses.dueDate })
    .from(s.objectiveAccesses)
    .innerJoin(s.objectives, eq(s.objectives.id, s.objectiveAccesses.objectiveId))
    .where(
      and(
        eq(s.objectives.tenantId, tenantId),
        eq(s.objectives.code, CATALOG_CODES[slug]),
        isNull(s.objectiveAccesses.userId),
      ),
    )
    .limit(1);
  return row?.dueDate ? new Date(row.dueDate.getTime() - dueIn * DAY_MS) : null;
}

// ---------------------------------------------------------------------------------------------
// seedCatalog
// ---------------------------------------------------------------------------------------------

/**
 * Seeds the demo catalog and the demo users' enrolments into `tenantId`, in one transaction.
 * Safe to call again: when the catalog's courses already exist it inserts nothing. Accepts the
 * database or an open transaction (then it runs in a savepoint).
 */
export async function seedCatalog(
  db: Db | Tx,
  input: { tenantId: string; userIds: Record<DemoUser, string>; now?: Date },
): Promise<{ objectiveIds: Record<CatalogSlug, string> }> {
  const { tenantId, userIds } = input;
  const now = input.now ?? new Date();
  const uuid = () => crypto.randomUUID();

  return (db as Db).transaction(async (tx) => {
    const existing = await findCatalog(tx, tenantId);
    if (Object.keys(existing).length > 0) return { objectiveIds: existing as Record<CatalogSlug, string> };

    // Grading scales and grades.
    const scaleRows: (typeof s.gradingScales.$inferInsert)[] = [];
    const gradeRows: (typeof s.grades.$inferInsert)[] = [];
    const scales = {} as Record<ScaleKey, ScaleForGrading & { id: string }>;
    for (const [key, def] of Object.entries(GRADING_SCALES) as [ScaleKey, (typeof GRADING_SCALES)[ScaleKey]][]) {
      const id = uuid();
      const grades = def.grades.map((g) => ({ ...g, id: uuid(), gradingScaleId: id }));
      const passing = grades.find((g) => g.name === def.passingGrade);
      scaleRows.push({
        id,
        tenantId,
        name: def.name,
        description: def.description,
        maxScore: def.maxScore,
        normalizedPassingScore: def.normalizedPassingScore,
        passingGradeId: passing?.id ?? null,
      });
      gradeRows.push(...grades);
      scales[key] = { id, maxScore: def.maxScore, normalizedPassingScore: def.normalizedPassingScore, grades };
    }
    await tx.insert(s.gradingScales).values(scaleRows);
    await tx.insert(s.grades).values(gradeRows);

    // Certificate templates of the courses that issue one.
    const templates = {} as Partial<Record<CatalogSlug, { id: string; name: string; validityDays: number | null }>>;
    for (const slug of CATALOG_SLUGS) {
      const cert = COURSE_DEFS[slug].certificate;
      if (cert) templates[slug] = { id: uuid(), ...cert };
    }
    await tx
      .insert(s.certificateTemplates)
      .values(
        Object.values(templates).map((t) => ({ id: t!.id, tenantId, name: t!.name, validityDays: t!.validityDays })),
      );

    // Collections, terms, filter categories and attributes.
    const showcaseIds = Object.fromEntries(Object.keys(COLLECTIONS).map((k) => [k, uuid()])) as Record<
      CollectionKey,
      string
    >;
    await tx.insert(s.showcases).values(
      (Object.keys(COLLECTIONS) as CollectionKey[]).map((k) => ({
        id: showcaseIds[k],
        tenantId,
        name: COLLECTIONS[k],
      })),
    );
    const termIds = Object.fromEntries(Object.keys(TERMS).map((k) => [k, uuid()])) as Record<TermKey, string>;
    await tx
      .insert(s.terms)
      .values((Object.keys(TERMS) as TermKey[]).map((k) => ({ id: termIds[k], tenantId, name: TERMS[k] })));
    const categoryRows: (typeof s.filterCategories.$inferInsert)[] = [];
    const attributeRows: (typeof s.filterAttributes.$inferInsert)[] = [];
    const attributeIds = {} as Record<AttributeName, string>;
    for (const [name, attributes] of Object.entries(FILTER_CATEGORIES)) {
      const categoryId = uuid();
      categoryRows.push({ id: categoryId, tenantId, name });
      for (const attribute of attributes as readonly AttributeName[]) {
        attributeIds[attribute] = uuid();
        attributeRows.push({ id: attributeIds[attribute], categoryId, name: attribute });
      }
    }
    await tx.insert(s.filterCategories).values(categoryRows);
    await tx.insert(s.filterAttributes).values(attributeRows);

    // Courses and their links.
    const objectiveIds = Object.fromEntries(CATALOG_SLUGS.map((slug) => [slug, uuid()])) as Record<CatalogSlug, string>;
    await tx.insert(s.objectives).values(
      CATALOG_SLUGS.map((slug, i) => {
        const c = COURSE_DEFS[slug];
        return {
          id: objectiveIds[slug],
          tenantId,
          name: c.name,
          code: c.code,
          description: c.description,
          about: c.about,
          imageUrl: c.cover ? coverUrl(slug) : null,
          state: c.state,
          type: c.type,
          activityKind: c.kind,
          activityState: c.activityState ?? c.state,
          childrenCount: c.children,
          presentationMode: c.mode,
          displayMode: c.display ?? 2,
          proctored: c.proctored ?? false,
          supportMobileView: c.supportMobileView ?? true,
          supportFullscreenView: c.supportFullscreenView ?? true,
          supportLtiAuthoring: c.supportLtiAuthoring ?? false,
          supportReview: c.supportReview ?? true,
          enableAiTutor: c.enableAiTutor ?? false,
          accessNewContentAfterCompletion: c.accessNewContentAfterCompletion ?? false,
          announcementChannelId: c.announcements ? uuid() : null,
          gradingScaleId: c.scale ? scales[c.scale].id : null,
          certificateTemplateId: templates[slug]?.id ?? null,
          inCatalog: c.inCatalog ?? true,
          isPublic: c.isPublic ?? false,
          allowSelfEnrollment: c.allowSelfEnrollment ?? true,
          // Staggered creation times so "newest first" orderings are stable.
          createdAt: new Date(now.getTime() - (CATALOG_SLUGS.length - i) * 3_600_000),
        };
      }),
    );
    await tx
      .insert(s.objectiveShowcases)
      .values(
        CATALOG_SLUGS.flatMap((slug) =>
          COURSE_DEFS[slug].collections.map((k) => ({ objectiveId: objectiveIds[slug], showcaseId: showcaseIds[k] })),
        ),
      );
    await tx
      .insert(s.objectiveAttributes)
      .values(
        CATALOG_SLUGS.flatMap((slug) =>
          COURSE_DEFS[slug].attributes.map((a) => ({ objectiveId: objectiveIds[slug], attributeId: attributeIds[a] })),
        ),
      );

    // Accesses: one tenant-wide access per catalog or public course, one per assignment.
    const accessRows: (typeof s.objectiveAccesses.$inferInsert)[] = [];
    const catalogAccess = {} as Partial<Record<CatalogSlug, typeof s.objectiveAccesses.$inferInsert>>;
    for (const slug of CATALOG_SLUGS) {
      const c = COURSE_DEFS[slug];
      if (!(c.inCatalog ?? true) && !c.isPublic) continue;
      const row = {
        id: uuid(),
        tenantId,
        objectiveId: objectiveIds[slug],
        userId: null,
        ...accessColumns(c.access, now, termIds),
      };
      catalogAccess[slug] = row;
      accessRows.push(row);
    }

    // Enrolments: aggregates copy the settings of the access they point at.
    const aggregateRows: (typeof s.objectiveWorkflowAggregates.$inferInsert)[] = [];
    const selfEnrolmentRows: (typeof s.selfEnrollments.$inferInsert)[] = [];
    const workflowRows: (typeof s.objectiveWorkflows.$inferInsert)[] = [];
    const recordRows: (typeof s.objectiveRecords.$inferInsert)[] = [];
    /** Finished, passed records of courses with a template: each has its certificate. */
    const certified: {
      recordId: string;
      userId: string;
      objectiveId: string;
      slug: CatalogSlug;
      issued: Date;
      pdf: string | null;
    }[] = [];
    for (const e of ENROLMENTS) {
      const userId = userIds[e.user];
      const objectiveId = objectiveIds[e.slug];
      const course = COURSE_DEFS[e.slug];
      const scale = course.scale ? scales[course.scale] : null;
      let access: typeof s.objectiveAccesses.$inferInsert;
      if (e.assigned) {
        access = { id: uuid(), tenantId, objectiveId, userId, ...accessColumns(e.assigned, now, termIds) };
        accessRows.push(access);
      } else {
        const found = catalogAccess[e.slug];
        if (!found) throw new Error(`seedCatalog: ${e.slug} has no catalog access for ${e.user}`);
        access = found;
      }
      const aggregateId = uuid();
      let lastWorkflowId: string | null = null;
      let lastWorkflowState: number | null = null;
      let lastRecordId: string | null = null;
      for (const [index, a] of (e.attempts ?? []).entries()) {
        const workflowId = uuid();
        const hasRecord = a.state >= W.submitted;
        const recordId = hasRecord ? uuid() : null;
        const submitted = a.state >= W.submitted ? daysFrom(now, -(a.submittedAgo ?? 0)) : null;
        const finished = a.state === W.finished ? daysFrom(now, -(a.finishedAgo ?? 0)) : null;
        workflowRows.push({
          id: workflowId,
          aggregateId,
          userId,
          objectiveId,
          attempt: index + 1,
          state: a.state,
          progress: a.progress,
          started: daysFrom(now, -a.startedAgo),
          submitted,
          finished,
          objectiveRecordId: recordId,
        });
        if (recordId) {
          const graded = gradeScore(scale, a.score ?? null);
          recordRows.push({
            id: recordId,
            aggregateId,
            workflowId,
            userId,
            objectiveId,
            ...graded,
            finished,
            progress: a.progress,
          });
          if (graded.passed === true && finished && course.certificate) {
            certified.push({
              recordId,
              userId,
              objectiveId,
              slug: e.slug,
              issued: finished,
              pdf: e.certificatePdf ?? null,
            });
          }
        }
        lastWorkflowId = workflowId;
        lastWorkflowState = a.state;
        lastRecordId = recordId;
      }
      if (e.imported) {
        const recordId = uuid();
        recordRows.push({
          id: recordId,
          aggregateId,
          workflowId: null,
          userId,
          objectiveId,
          ...gradeScore(scale, e.imported.score),
          finished: daysFrom(now, -e.imported.finishedAgo),
          progress: 1,
          imported: true,
        });
        lastRecordId = recordId;
      }
      aggregateRows.push({
        id: aggregateId,
        tenantId,
        userId,
        objectiveId,
        objectiveAccessId: access.id,
        termId: access.termId,
        isMandatory: access.isMandatory,
        isSelfEnrolled: e.selfEnrolled ?? false,
        retake: access.retake,
        dueDate: access.dueDate,
        availabilityDate: access.availabilityDate,
        availabilityEndDate: access.availabilityEndDate,
        gradeRevealPolicy: access.gradeRevealPolicy,
        gradeRevealDate: access.gradeRevealDate,
        lastWorkflowId,
        lastRecordId,
        lastWorkflowState,
      });
      if (e.selfEnrolled) selfEnrolmentRows.push({ id: uuid(), userId, objectiveAccessId: access.id!, aggregateId });
    }

    await tx.insert(s.objectiveAccesses).values(accessRows);
    await tx.insert(s.objectiveWorkflowAggregates).values(aggregateRows);
    await tx.insert(s.selfEnrollments).values(selfEnrolmentRows);
    await tx.insert(s.objectiveWorkflows).values(workflowRows);
    await tx.insert(s.objectiveRecords).values(recordRows);

    // Certificates, numbered in the order they were issued from the same sequence the API uses.
    certified.sort((x, y) => x.issued.getTime() - y.issued.getTime());
    const certificateRows: (typeof s.certificateRecords.$inferInsert)[] = [];
    for (const c of certified) {
      const template = templates[c.slug]!;
      const seq = await tx.execute<{ n: string }>(sql`select nextval('certificate_number_seq')::text as n`);
      const scale = COURSE_DEFS[c.slug].scale;
      certificateRows.push({
        certificateNumber: formatCertificateNumber(c.issued, Number(seq.rows[0].n)),
        certificateTemplateId: template.id,
        templateName: template.name,
        objectiveId: c.objectiveId,
        userId: c.userId,
        objectiveRecordId: c.recordId,
        normalizedPassingScore: scale ? GRADING_SCALES[scale].normalizedPassingScore : null,
        expirationDate: certificateExpiration(c.issued, template.validityDays),
        certificatePdfUrl: c.pdf,
        created: c.issued,
      });
    }
    if (certificateRows.length) await tx.insert(s.certificateRecords).values(certificateRows);
    return { objectiveIds };
  });
}
