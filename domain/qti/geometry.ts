/**
 * Decision 056: QTI's shapes (hotspots, area mappings, qti-inside) and whether a point is inside one.
 * Coordinates are the image's pixels: rect "left,top,right,bottom", circle "x,y,r", ellipse "x,y,rx,ry",
 * poly "x1,y1,x2,y2,…", default the whole image.
 */
export type Shape = "rect" | "circle" | "ellipse" | "poly" | "default";
const SHAPES: readonly Shape[] = ["rect", "circle", "ellipse", "poly", "default"];

const COUNTS: Record<Shape, (n: number) => boolean> = {
  rect: (n) => n === 4,
  circle: (n) => n === 3,
  ellipse: (n) => n === 4,
  poly: (n) => n >= 6 && n % 2 === 0,
  default: () => true,
};

/** The numbers of a coords attribute when they fit the shape; null when not. */
export function parseCoords(shape: Shape, text: string | undefined): number[] | null {
  if (shape === "default") return [];
  const parts = (text ?? "").split(/[\s,]+/).filter(Boolean);
  const coords = parts.map(Number);
  if (coords.some((c) => !Number.isFinite(c)) || !COUNTS[shape](coords.length)) return null;
  return coords;
}

export function isShape(s: string | undefined): s is Shape {
  return SHAPES.includes(s as Shape);
}

/** Whether the point (x, y) is inside the shape; its edge counts as inside. */
export function inside(shape: Shape, c: number[], x: number, y: number): boolean {
  switch (shape) {
    case "default":
      return true;
    case "rect": {
      const [l, t, r, b] = c as [number, number, number, number];
      return x >= Math.min(l, r) && x <= Math.max(l, r) && y >= Math.min(t, b) && y <= Math.max(t, b);
    }
    case "circle": {
      const [cx, cy, r] = c as [number, number, number];
      return (x - cx) ** 2 + (y - cy) ** 2 <= r ** 2;
    }
    case "ellipse": {
      const [cx, cy, rx, ry] = c as [number, number, number, number];
      if (rx <= 0 || ry <= 0) return false;
      return ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1;
    }
    case "poly": {
      const pts: [number, number][] = [];
      for (let i = 0; i + 1 < c.length; i += 2) pts.push([c[i]!, c[i + 1]!]);
      let within = false;
      for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
        const [xi, yi] = pts[i]!;
        const [xj, yj] = pts[j]!;
        // On an edge: inside.
        const cross = (x - xi) * (yj - yi) - (y - yi) * (xj - xi);
        if (
          Math.abs(cross) < 1e-9 &&
          x >= Math.min(xi, xj) &&
          x <= Math.max(xi, xj) &&
          y >= Math.min(yi, yj) &&
          y <= Math.max(yi, yj)
        )
          return true;
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) within = !within;
      }
      return within;
    }
  }
}

/** A point value ("x y") as numbers, or null. */
export function pointOf(v: unknown): [number, number] | null {
  if (typeof v !== "string") return null;
  const [x, y] = v.split(" ").map(Number);
  return Number.isFinite(x) && Number.isFinite(y) ? [x!, y!] : null;
}

/** Where a shape's label is drawn (its centre). */
export function centreOf(shape: Shape, c: number[], width: number, height: number): [number, number] {
  switch (shape) {
    case "rect":
      return [(c[0]! + c[2]!) / 2, (c[1]! + c[3]!) / 2];
    case "circle":
    case "ellipse":
      return [c[0]!, c[1]!];
    case "poly": {
      let sx = 0;
      let sy = 0;
      const n = Math.floor(c.length / 2);
      for (let i = 0; i < n; i++) {
        sx += c[2 * i]!;
        sy += c[2 * i + 1]!;
      }
      return [sx / n, sy / n];
    }
    default:
      return [width / 2, height / 2];
  }
}
