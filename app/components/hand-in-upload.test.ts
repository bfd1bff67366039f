import { describe, expect, it } from "vitest";
import { fileProgress } from "./hand-in-upload";

describe("fileProgress: each file's share of an upload, the files sent in their order", () => {
  it.each([
    [[100, 300], 0, [0, 0]],
    [[100, 300], 0.25, [1, 0]],
    [[100, 300], 0.5, [1, 1 / 3]],
    [[100, 300], 1, [1, 1]],
    // The form's other fields make the body longer than the files: never past 100 %.
    [[100, 300], 1.2, [1, 1]],
    [[0, 200], 0.5, [0, 0.5]],
    [[0, 200], 1, [1, 1]],
  ])("%o at %d sent → %o", (sizes, fraction, expected) => {
    expect(fileProgress(sizes, fraction)).toEqual(expected);
  });
});
