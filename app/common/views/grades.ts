/** What the grades page (issue 31 item 1) shows of one course, as the grades service prepares it. */
import type { FormattedScore } from "#domain/courses";

interface ScoreView {
  color: "success" | "accent" | "danger";
  percent: FormattedScore;
  points: FormattedScore;
}

export interface GradeActivityRow {
  id: string;
  name: string;
  /** hidden: spec 4.7 hides the attempt's scores; scored; awaitingGrading: handed in, not scored; notDone. */
  status: "hidden" | "scored" | "awaitingGrading" | "notDone";
  score: ScoreView | null;
  passed: boolean | null;
  finished: string | null;
}

export interface GradeRow {
  id: string;
  name: string;
  code: string;
  mandatory: boolean;
  /** Translation key of the attempt's state (spec 4.1). */
  stateKey: string;
  progress: number;
  result: {
    score: ScoreView | null;
    grade: { name: string; color: string } | null;
    outcome: "pending" | "passed" | "failed";
  } | null;
  hidden: boolean;
  hiddenUntil: string | null;
  completed: string | null;
  activities: GradeActivityRow[];
}

/** Decision 058: one "your assignment was graded" notice as the course hub lists it. */
export interface GradeNoticeView {
  id: string;
  activityName: string;
  href: string;
  score: number | null;
  maxScore: number | null;
  time: string;
  /** Not seen before this page view. */
  unread: boolean;
}
