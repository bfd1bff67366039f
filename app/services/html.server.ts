import sanitizeHtml from "sanitize-html";

/** Course HTML (about, text activities) is sanitised before it is rendered (security baseline). */
export function sanitizeCourseHtml(html: string | null | undefined): string {
  return sanitizeHtml(html ?? "", {
    allowedTags: [
      "p",
      "br",
      "strong",
      "b",
      "em",
      "i",
      "u",
      "s",
      "sub",
      "sup",
      "h2",
      "h3",
      "h4",
      "h5",
      "h6",
      "ul",
      "ol",
      "li",
      "blockquote",
      "pre",
      "code",
      "hr",
      "a",
      "img",
      "figure",
      "figcaption",
      "table",
      "thead",
      "tbody",
      "tr",
      "th",
      "td",
      "span",
    ],
    allowedAttributes: {
      a: ["href", "title"],
      img: ["src", "alt", "width", "height"],
      th: ["scope", "colspan", "rowspan"],
      td: ["colspan", "rowspan"],
      pre: ["tabindex"],
      table: ["tabindex"],
      "*": ["lang", "dir"],
    },
    allowedSchemes: ["https", "mailto"],
    allowedSchemesByTag: { img: ["https", "data"] },
    allowProtocolRelative: false,
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: "noopener noreferrer", target: "_blank" } }),
      h1: "h2",
      // Issue 25 item 1: code and tables scroll inside themselves on a phone; a keyboard reaches them
      // (WCAG 2.1.1, axe's scrollable-region-focusable).
      pre: (tagName, attribs) => ({ tagName, attribs: { ...attribs, tabindex: "0" } }),
      table: (tagName, attribs) => ({ tagName, attribs: { ...attribs, tabindex: "0" } }),
    },
    allowedSchemesAppliedToAttributes: ["href", "src"],
  }).replace(/<img(?![^>]*\balt=)/g, '<img alt=""');
}
