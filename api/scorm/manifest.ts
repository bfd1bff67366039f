/**
 * imsmanifest.xml of a SCORM 1.2 or 2004 (3rd/4th edition) package, read with a real XML parser
 * (fast-xml-parser; namespace prefixes dropped, so `adlcp:masteryscore` and `imsss:sequencing` are
 * found whatever prefix the author bound). Decision 025.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import {
  durationSeconds,
  launchFile,
  launchUrl,
  type ScormItem,
  type ScormManifest,
  type ScormSharedDataMap,
} from "../../domain/scorm";

/** A package the import refuses: `code` is stable (tests, the API's error code), `message` says why. */
export class ScormPackageError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 422,
  ) {
    super(message);
  }
}

type Node = Record<string, unknown>;

/** Items nest in clusters; no course nests them deeper than this. */
const MAX_ITEM_DEPTH = 32;

const ARRAYS = new Set(["organization", "item", "resource", "file", "dependency", "map"]);

/**
 * A parser of IMS packaging manifests (this one, and the Common Cartridge's: decision 049): attributes as
 * `@name`, namespace prefixes dropped, values as written, the elements in `arrays` always lists.
 */
export const manifestParser = (arrays: ReadonlySet<string>) =>
  new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    processEntities: true,
    isArray: (name) => arrays.has(name),
  });

const parser = manifestParser(ARRAYS);

/** An element's or attribute's text (trimmed), or null. */
export const text = (v: unknown): string | null => {
  if (v === undefined || v === null) return null;
  if (typeof v === "string") return v.trim();
  if (typeof v === "number") return String(v);
  if (typeof v === "object" && "#text" in (v as Node)) return text((v as Node)["#text"]);
  return null;
};
const attr = (n: Node | undefined, name: string) => (n ? text(n[`@${name}`]) : null);
const child = (n: Node | undefined, name: string) => (n?.[name] ?? undefined) as Node | undefined;
const list = (n: Node | undefined, name: string) => ((n?.[name] as Node[] | undefined) ?? []).filter(Boolean);

/** The package's SCORM version from its metadata schemaversion (or, lacking it, its namespaces). */
function versionOf(xml: string, schemaVersion: string | null): "1.2" | "2004" {
  if (schemaVersion) {
    if (/^1\.2$/.test(schemaVersion)) return "1.2";
    if (/2004|CAM 1\.3/i.test(schemaVersion)) return "2004";
  }
  // adlcp_rootv1p2 is 1.2's namespace; adlcp_v1p3 2004's.
  return /adlcp_v1p3|imsss/.test(xml) ? "2004" : "1.2";
}

/** Parses the manifest text; throws ScormPackageError for anything that is not a usable manifest. */
export function parseManifest(xml: string): ScormManifest {
  // A manifest has no use for a document type: its entities (external ones, a parameter entity, an
  // expansion bomb) are refused with the rest of a bad manifest, before the parser sees them.
  if (/<!DOCTYPE/i.test(xml))
    throw new ScormPackageError(
      "manifestInvalid",
      "imsmanifest.xml declares a document type (DOCTYPE), which a manifest has no use for.",
    );
  let doc: Node;
  try {
    const valid = XMLValidator.validate(xml);
    if (valid !== true)
      throw new ScormPackageError("manifestInvalid", `imsmanifest.xml is not well-formed XML: ${valid.err.msg}`);
    doc = parser.parse(xml) as Node;
  } catch (error) {
    if (error instanceof ScormPackageError) throw error;
    // Whatever else the parser refuses is a manifest the import cannot read: the import's 422, never a 500.
    throw new ScormPackageError("manifestInvalid", `imsmanifest.xml could not be read: ${(error as Error).message}`);
  }
  const manifest = child(doc, "manifest");
  if (!manifest) throw new ScormPackageError("manifestInvalid", "imsmanifest.xml has no <manifest> element.");
  const schemaVersion = text(child(child(manifest, "metadata"), "schemaversion"));
  const version = versionOf(xml, schemaVersion);

  const resourcesNode = child(manifest, "resources");
  const resourcesBase = attr(resourcesNode, "base") ?? "";
  const resources = new Map<string, Node>();
  for (const r of list(resourcesNode, "resource")) {
    const id = attr(r, "identifier");
    if (id) resources.set(id, r);
  }

  const orgs = child(manifest, "organizations");
  const organizations = list(orgs, "organization");
  if (organizations.length === 0)
    throw new ScormPackageError("noOrganization", "imsmanifest.xml has no organization (nothing to launch).");
  const defaultId = attr(orgs, "default");
  const org = organizations.find((o) => attr(o, "identifier") === defaultId) ?? organizations[0];

  const item = (n: Node, depth: number): ScormItem => {
    // An item tree deeper than any course (a nesting bomb) is refused, not followed until the stack ends.
    if (depth > MAX_ITEM_DEPTH)
      throw new ScormPackageError("manifestInvalid", `imsmanifest.xml nests items more than ${MAX_ITEM_DEPTH} deep.`);
    const ref = attr(n, "identifierref");
    let launch: string | null = null;
    let scormType: "sco" | "asset" = "sco";
    if (ref) {
      const res = resources.get(ref);
      if (!res)
        throw new ScormPackageError(
          "missingResource",
          `Item "${attr(n, "identifier")}" refers to an unknown resource "${ref}".`,
        );
      const href = attr(res, "href");
      if (!href) throw new ScormPackageError("missingLaunch", `Resource "${ref}" has no launch file (href).`);
      launch = launchUrl(joinBase(resourcesBase, attr(res, "base") ?? ""), href, attr(n, "parameters"));
      // The file is found by its decoded path: a launch that does not decode names no file.
      try {
        launchFile(launch);
      } catch {
        throw new ScormPackageError("missingLaunch", `The launch path of resource "${ref}" is not a valid path.`);
      }
      // adlcp:scormType (2004) / adlcp:scormtype (1.2): an asset gets no run-time API.
      if ((attr(res, "scormType") ?? attr(res, "scormtype"))?.toLowerCase() === "asset") scormType = "asset";
    }
    const sequencing = child(n, "sequencing");
    const objective = child(child(sequencing, "objectives"), "primaryObjective");
    const mastery1p2 = text(n["masteryscore"]);
    const minMeasure =
      objective && attr(objective, "satisfiedByMeasure") === "true" ? text(objective["minNormalizedMeasure"]) : null;
    const masteryScore =
      mastery1p2 !== null ? Number(mastery1p2) : minMeasure !== null ? Math.round(Number(minMeasure) * 100) : null;
    const limits = child(sequencing, "limitConditions");
    // Issue 30 item 4: cmi.scaled_passing_score is the primary objective's minNormalizedMeasure when the
    // objective is satisfied by measure (default 1.0); otherwise it is not initialised.
    const scaledPassingScore =
      objective && attr(objective, "satisfiedByMeasure") === "true"
        ? measure(text(objective["minNormalizedMeasure"]), -1, 1, 1)
        : null;
    return {
      identifier: attr(n, "identifier") ?? "",
      title: text(n["title"]) ?? attr(n, "identifier") ?? "",
      launch,
      masteryScore: masteryScore !== null && Number.isFinite(masteryScore) ? masteryScore : null,
      timeLimit: durationSeconds(text(n["maxtimeallowed"]) ?? attr(limits, "attemptAbsoluteDurationLimit")),
      timeLimitAction: text(n["timelimitaction"]) ?? text(n["timeLimitAction"]),
      launchData: text(n["datafromlms"]) ?? text(n["dataFromLMS"]),
      completionThreshold: completionThreshold(n["completionThreshold"]),
      scaledPassingScore,
      sharedData: sharedDataMaps(child(n, "data")),
      scormType,
      children: list(n, "item").map((c) => item(c, depth + 1)),
    };
  };
  const items = list(org, "item").map((c) => item(c, 1));
  if (
    !items.some(function hasLaunch(i): boolean {
      return i.launch !== null || i.children.some(hasLaunch);
    })
  )
    throw new ScormPackageError("missingLaunch", "The organization has no item that launches anything.");
  const control = child(child(org, "sequencing"), "controlMode");
  return {
    version,
    schemaVersion: schemaVersion ?? (version === "1.2" ? "1.2" : "2004"),
    title: text(org["title"]) ?? "",
    items,
    controlMode: {
      choice: attr(control, "choice") !== "false",
      // SCORM 2004 CAM: flow defaults to false (a package that wants Previous/Next says so); 1.2 has no sequencing.
      flow: version === "1.2" || attr(control, "flow") === "true",
    },
  };
}

/** A number in [min, max] from the manifest's text; `fallback` when absent, null when it is not one. */
function measure(value: string | null, min: number, max: number, fallback: number | null): number | null {
  if (value === null || value === "") return fallback;
  const n = Number(value);
  return Number.isFinite(n) && n >= min && n <= max ? n : null;
}

/**
 * adlcp:completionThreshold: the 4th edition's attributes (minProgressMeasure counts only when
 * completedByMeasure is true; default 1.0), or the 3rd edition's text content.
 */
function completionThreshold(node: unknown): number | null {
  if (node === undefined || node === null) return null;
  if (typeof node === "string") return measure(node.trim(), 0, 1, null);
  const n = node as Node;
  if (attr(n, "completedByMeasure") !== "true") return null;
  return measure(attr(n, "minProgressMeasure"), 0, 1, 1);
}

/** adlcp:data's maps: target id with read (default true) and write (default true) permission. */
function sharedDataMaps(data: Node | undefined): ScormSharedDataMap[] {
  return list(data, "map")
    .map((m) => ({
      targetId: attr(m, "targetID") ?? "",
      read: attr(m, "readSharedData") !== "false",
      write: attr(m, "writeSharedData") !== "false",
    }))
    .filter((m) => m.targetId !== "" && m.targetId.length <= 4000);
}

function joinBase(a: string, b: string): string {
  if (!a) return b;
  if (!b) return a;
  return a.endsWith("/") ? a + b : `${a}/${b}`;
}
