/**
 * IMS Common Cartridge 1.1, 1.2 and 1.3 (issue 50 item 1, decision 049): the manifest (imsmanifest.xml,
 * IMS Content Packaging 1.1) and the small XML documents its resources point at — web links
 * (imswl_xmlv1pN), discussion topics (imsdt_xmlv1pN) and basic LTI links (imsbasiclti_xmlv1p0) — read
 * with a real XML parser (fast-xml-parser, namespace prefixes dropped). A document type is refused before
 * the parser sees it (external entities, expansion bombs), as the SCORM import does (decision 040).
 */
import { XMLValidator } from "fast-xml-parser";
import { manifestParser, ScormPackageError, text as scormText } from "../scorm/manifest";

/** A cartridge the import refuses: the SCORM import's refusal (a stable code, why, the HTTP status). */
export class CartridgeError extends ScormPackageError {}

type Node = Record<string, unknown>;

export interface CartridgeItem {
  identifier: string;
  title: string;
  /** The resource this item shows; none for a module (an item with items). */
  resource: CartridgeResource | null;
  children: CartridgeItem[];
}

interface CartridgeResource {
  identifier: string;
  type: string;
  href: string | null;
  files: string[];
}

export interface CartridgeManifest {
  identifier: string;
  version: string;
  title: string;
  items: CartridgeItem[];
  resources: Map<string, CartridgeResource>;
}

const MAX_DEPTH = 32;
const ARRAYS = new Set(["organization", "item", "resource", "file", "dependency", "string", "property"]);

const parser = manifestParser(ARRAYS);

/** The text of an element that may be repeated (its first). */
const text = (v: unknown): string | null => scormText(Array.isArray(v) ? v[0] : v);
const attr = (n: Node | undefined, name: string) => (n ? text(n[`@${name}`]) : null);
const child = (n: Node | undefined, name: string) => {
  const v = n?.[name];
  return (Array.isArray(v) ? v[0] : v) as Node | undefined;
};
const list = (n: Node | undefined, name: string) => ((n?.[name] as Node[] | undefined) ?? []).filter(Boolean);

/** Parses one of the cartridge's XML documents; `name` says which in the error. */
function parseXml(xml: string, name: string): Node {
  if (/<!DOCTYPE/i.test(xml))
    throw new CartridgeError(
      "xmlInvalid",
      `${name} declares a document type (DOCTYPE), which a cartridge has no use for.`,
    );
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new CartridgeError("xmlInvalid", `${name} is not well-formed XML: ${valid.err.msg}`);
  return parser.parse(xml) as Node;
}

/** A LOM `title` (a `string` per language, or plain text): its first text. */
function lomTitle(title: Node | undefined): string | null {
  if (!title) return null;
  const strings = list(title, "string");
  return strings.length ? text(strings[0]) : text(title);
}

export function parseCartridgeManifest(xml: string): CartridgeManifest {
  const doc = parseXml(xml, "imsmanifest.xml");
  const manifest = child(doc, "manifest");
  if (!manifest) throw new CartridgeError("manifestInvalid", "imsmanifest.xml has no <manifest>.");
  const metadata = child(manifest, "metadata");
  const schema = text(metadata?.schema) ?? "";
  const version = text(metadata?.schemaversion) ?? "";
  if (!/common cartridge/i.test(schema) && !/imscc/i.test(xml.slice(0, 2000)))
    throw new CartridgeError(
      "notCartridge",
      "imsmanifest.xml is not a Common Cartridge's (its schema is not IMS Common Cartridge).",
    );
  if (version && !/^1\.[0-3](\.\d+)?$/.test(version))
    throw new CartridgeError("unsupportedVersion", `Common Cartridge ${version} is not supported (1.0 to 1.3 are).`);
  const resources = new Map<string, CartridgeResource>();
  for (const r of list(child(manifest, "resources"), "resource")) {
    const identifier = attr(r, "identifier");
    if (!identifier) continue;
    resources.set(identifier, {
      identifier,
      type: attr(r, "type") ?? "",
      href: attr(r, "href"),
      files: list(r, "file").flatMap((f) => (attr(f, "href") ? [attr(f, "href")!] : [])),
    });
  }
  const organization = list(child(manifest, "organizations"), "organization")[0];
  const walk = (nodes: Node[], depth: number): CartridgeItem[] => {
    if (depth > MAX_DEPTH) throw new CartridgeError("manifestInvalid", `Items nest deeper than ${MAX_DEPTH} levels.`);
    return nodes.map((n, i) => {
      const identifier = attr(n, "identifier") ?? `item-${depth}-${i}`;
      const ref = attr(n, "identifierref");
      return {
        identifier,
        title: text(n.title) ?? "",
        resource: ref ? (resources.get(ref) ?? null) : null,
        children: walk(list(n, "item"), depth + 1),
      };
    });
  };
  let items = organization ? walk(list(organization, "item"), 0) : [];
  // A rooted hierarchy has one item without a resource that holds the course's items.
  if (items.length === 1 && !items[0].resource && items[0].children.length) items = items[0].children;
  const lom = child(metadata, "lom");
  const title =
    lomTitle(child(child(lom, "general"), "title")) || text(organization?.title) || attr(manifest, "identifier") || "";
  return { identifier: attr(manifest, "identifier") ?? "", version: version || "1.0", title, items, resources };
}

/** The kind of a resource's type, whatever the CC version in it (imswl_xmlv1p1 … imswl_xmlv1p3). */
export function resourceKind(
  type: string,
): "webcontent" | "weblink" | "discussion" | "lti" | "assessment" | "assignment" | "other" {
  if (type === "webcontent") return "webcontent";
  if (/^imswl_xmlv1p\d/.test(type)) return "weblink";
  if (/^imsdt_xmlv1p\d/.test(type)) return "discussion";
  if (/^imsbasiclti_xmlv1p\d/.test(type) || /lti/i.test(type)) return "lti";
  if (/^imsqti_xmlv1p2\/imscc_xmlv1p\d\/(assessment|question-bank)/.test(type) || /qti/i.test(type))
    return "assessment";
  if (/assignment/i.test(type)) return "assignment";
  return "other";
}

export function parseWebLink(xml: string, name: string): { title: string; url: string } {
  const doc = parseXml(xml, name);
  const link = child(doc, "webLink");
  const url = attr(child(link, "url"), "href");
  if (!link || !url) throw new CartridgeError("resourceInvalid", `${name} is not a web link (no <webLink><url href>).`);
  return { title: text(link.title) ?? url, url };
}

export function parseTopic(xml: string, name: string): { title: string; html: string } {
  const doc = parseXml(xml, name);
  const topic = child(doc, "topic");
  if (!topic) throw new CartridgeError("resourceInvalid", `${name} is not a discussion topic (no <topic>).`);
  return { title: text(topic.title) ?? "", html: text(topic.text) ?? "" };
}

/** An LTI custom parameter's name as the platform sends it (LTI Core §5.4.5; the operator's attach checks the same). */
const CUSTOM_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

export function parseBasicLti(
  xml: string,
  name: string,
): { title: string; launchUrl: string | null; custom: Record<string, string> } {
  const doc = parseXml(xml, name);
  const link = child(doc, "cartridge_basiclti_link");
  if (!link) throw new CartridgeError("resourceInvalid", `${name} is not a basic LTI link.`);
  // <blti:custom><lticm:property name="…">value</lticm:property>…: the well-formed ones, at most 50.
  const custom: Record<string, string> = {};
  for (const property of list(child(link, "custom"), "property").slice(0, 50)) {
    const key = attr(property, "name");
    const value = text(property) ?? "";
    if (key && CUSTOM_NAME.test(key) && value.length <= 1000) custom[key] = value;
  }
  return { title: text(link.title) ?? "", launchUrl: text(link.secure_launch_url) || text(link.launch_url), custom };
}
