/**
 * A course's tree as content.json writes it, turned into the activities the seed inserts: the
 * vocabulary's numbers, the defaults of each kind (content type, activity type, reading time), the
 * HTML and files read in, and the fields a kind does not use refused.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ActivityContentType, ActivityKind, ActivityType, ObjectiveState } from "../../domain/vocabulary";
import { DemoContentError, publicPath, readHtml } from "./files";
import type { ConstraintDef, DemoUser, EventDef, Media, RawNode } from "./schemas";

/** An activity as the seed inserts it: vocabulary numbers, content object, defaults applied. */
export interface ActivityDef {
  name: string;
  kind: ActivityKind;
  contentType: ActivityContentType;
  type: ActivityType;
  state?: ObjectiveState;
  content: Record<string, unknown>;
  event?: EventDef;
  toolUrl?: string;
  duration?: number;
  optional?: boolean;
  weight?: number;
  maxScore?: number;
  manualGrading?: boolean;
  constraint?: ConstraintDef;
  imageUrl?: string;
  proctored?: boolean;
  supportReview?: boolean;
  modes?: "personal" | "group" | "either";
  preferredSize?: [number, number];
  done?: boolean;
  missed?: boolean;
  posts?: { by: DemoUser; daysAgo: number; body: string }[];
  children?: ActivityDef[];
}

export const DEFAULT_CONTENT_TYPE: Record<ActivityKind, ActivityContentType> = {
  [ActivityKind.text]: ActivityContentType.Text,
  [ActivityKind.lti]: ActivityContentType.Lti13,
  [ActivityKind.composite]: ActivityContentType.Composite,
  [ActivityKind.event]: ActivityContentType.Text,
  [ActivityKind.video]: ActivityContentType.Vimeo,
  [ActivityKind.discussion]: ActivityContentType.Text,
};

/** The activity type when content.json gives none (an LTI activity must give one). */
export function defaultType(
  node: Pick<RawNode, "kind" | "manualGrading">,
  contentType: ActivityContentType,
): ActivityType | null {
  switch (node.kind) {
    case ActivityKind.composite:
      return ActivityType.Composite;
    case ActivityKind.text:
      if (contentType === ActivityContentType.PublicFile) return ActivityType.PublicFiles;
      if (contentType === ActivityContentType.PrivateFile) return ActivityType.PrivateFiles;
      return node.manualGrading ? ActivityType.Assignment : ActivityType.RichText;
    case ActivityKind.video:
      return ActivityType.PublicFiles;
    case ActivityKind.event:
      return ActivityType.Classroom;
    case ActivityKind.discussion:
      return ActivityType.ClassDiscussion;
    default:
      return null;
  }
}

function words(html: string): number {
  const plain = html.replace(/<[^>]+>/g, " ");
  const spaced = plain.split(/\s+/).filter(Boolean).length;
  const cjk = (plain.match(/[\u3040-\u30ff\u4e00-\u9fff]/g) ?? []).length;
  return spaced + Math.round(cjk / 2);
}

/** Reading time of a text in seconds: 180 words a minute, at least two minutes. */
export const readingTime = (html: string): number => Math.max(2, Math.round(words(html) / 180)) * 60;

const KIND_FIELDS: Record<string, readonly string[]> = {
  html: ["text"],
  file: ["text"],
  vimeoId: ["video"],
  description: ["event"],
  event: ["event"],
  prompt: ["discussion"],
  minReplies: ["discussion"],
  posts: ["discussion"],
  children: ["composite"],
};

export function expandNode(
  node: RawNode,
  at: { file: string; field: string; courseDir: string; media: Media },
): ActivityDef {
  const { file, field } = at;
  /** The field `key` of this activity, e.g. children[0].children[2].html. */
  const fieldAt = (key: string) => (field ? `${field}.${key}` : key);
  const fail = (key: string, message: string): never => {
    throw new DemoContentError(file, fieldAt(key), message);
  };
  const kindName = Object.keys(ActivityKind).find((k) => ActivityKind[k as keyof typeof ActivityKind] === node.kind)!;
  for (const [key, kinds] of Object.entries(KIND_FIELDS)) {
    if ((node as unknown as Record<string, unknown>)[key] !== undefined && !kinds.includes(kindName))
      fail(key, `not used by an activity of kind ${kindName}`);
  }
  const contentType = node.contentType ?? DEFAULT_CONTENT_TYPE[node.kind];
  const type = node.type ?? defaultType(node, contentType);
  if (type === null)
    fail("type", `an activity of kind ${kindName} needs a type (one of ${Object.keys(ActivityType).join(", ")})`);

  let content: Record<string, unknown> = {};
  let duration: number | undefined;
  switch (node.kind) {
    case ActivityKind.composite:
      if (!node.children?.length) fail("children", "a module needs at least one activity");
      break;
    case ActivityKind.text:
      if (contentType === ActivityContentType.Text) {
        if (!node.html) fail("html", "a text needs its HTML file (html)");
        const html = readHtml(join(at.courseDir, node.html!), file, fieldAt("html"));
        content = { html };
        duration = readingTime(html);
      } else if (contentType === ActivityContentType.PublicFile || contentType === ActivityContentType.PrivateFile) {
        const media =
          node.file !== undefined && Object.hasOwn(at.media.files, node.file) ? at.media.files[node.file] : undefined;
        if (!media)
          fail(
            "file",
            `unknown file ${JSON.stringify(node.file)} (files of media.json: ${Object.keys(at.media.files).join(", ")})`,
          );
        if ((contentType === ActivityContentType.PublicFile) !== "url" in media!)
          fail(
            "file",
            `${node.file} is not a ${contentType === ActivityContentType.PublicFile ? "public" : "private"} file`,
          );
        content = { ...media };
      } else {
        fail("contentType", "a text is Text, PublicFile or PrivateFile");
      }
      break;
    case ActivityKind.video:
      if (!node.vimeoId) fail("vimeoId", "a video needs its Vimeo id");
      if (!node.duration) fail("duration", "a video needs its length in seconds (duration)");
      content = { vimeoId: node.vimeoId };
      break;
    case ActivityKind.event:
      if (!node.event) fail("event", "an event needs its date, time and place (event)");
      content = { description: node.description ?? "" };
      duration = node.event!.hours * 3600;
      break;
    case ActivityKind.discussion:
      if (!node.prompt) fail("prompt", "a discussion needs a prompt");
      content = { prompt: node.prompt, ...(node.minReplies ? { minReplies: node.minReplies } : {}) };
      break;
    case ActivityKind.lti:
      content = { tool: contentType === ActivityContentType.Lti11 ? at.media.ltiTool11 : at.media.ltiTool };
      break;
  }
  if (node.imageUrl && !existsSync(publicPath(node.imageUrl))) fail("imageUrl", `${node.imageUrl} is not in public/`);

  const def: ActivityDef = {
    name: node.name ?? "",
    kind: node.kind,
    contentType,
    type: type!,
    content,
    ...(node.event ? { event: node.event } : {}),
  };
  const optional = {
    state: node.state,
    duration: node.duration ?? duration,
    optional: node.optional,
    weight: node.weight,
    maxScore: node.maxScore,
    manualGrading: node.manualGrading,
    constraint: node.constraint,
    imageUrl: node.imageUrl,
    proctored: node.proctored,
    supportReview: node.supportReview,
    modes: node.modes,
    preferredSize: node.preferredSize,
    done: node.done,
    missed: node.missed,
    posts: node.posts,
  };
  for (const [key, value] of Object.entries(optional))
    if (value !== undefined) (def as unknown as Record<string, unknown>)[key] = value;
  if (node.kind === ActivityKind.composite) {
    def.children = node.children!.map((child, i) =>
      expandNode(child, { ...at, field: `${field ? `${field}.` : ""}children[${i}]` }),
    );
  }
  return def;
}
