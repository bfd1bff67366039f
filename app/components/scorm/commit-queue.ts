import type { ScormCommit, ScormCommitResult } from "#domain/contract/scorm";

/** What the learner sees of the queue: everything saved, commits on their way, or waiting for the network. */
export type SaveStatus = "saved" | "pending" | "offline" | "failed";

/**
 * The SCORM player's commits (issue 15 item 4, decision 025), sent one at a time in the order the
 * SCO made them. Each carries the SCO's next sequence number, so the server applies it once even when
 * a retry repeats it or an older one arrives late. When the network fails the commit stays at the head
 * of the queue and is retried when the browser is back online (or every few seconds); a refusal (4xx)
 * drops it and says so. Nothing is lost while the page stays open.
 */
export class CommitQueue {
  private queue: ScormCommit[] = [];
  private sending = false;
  private sequences = new Map<string, number>();
  private retry: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly url: string,
    initial: Record<string, number>,
    private readonly onStatus: (status: SaveStatus) => void,
    private readonly onFinished: () => void,
  ) {
    for (const [sco, n] of Object.entries(initial)) this.sequences.set(sco, n);
    window.addEventListener("online", this.flush);
  }

  /** Queues one commit of a SCO's kept data. */
  push(scoId: string, cmi: Record<string, string>, finish: boolean) {
    const sequence = (this.sequences.get(scoId) ?? 0) + 1;
    this.sequences.set(scoId, sequence);
    this.queue.push({ scoId, sequence, cmi, ...(finish ? { finish } : {}) });
    this.onStatus("pending");
    void this.flush();
  }

  get pending(): number {
    return this.queue.length;
  }

  dispose() {
    window.removeEventListener("online", this.flush);
    if (this.retry) clearTimeout(this.retry);
  }

  private flush = async () => {
    if (this.sending) return;
    this.sending = true;
    let failed = false;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    try {
      while (this.queue.length > 0) {
        const next = this.queue[0];
        let res: Response;
        try {
          res = await fetch(this.url, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify(next),
          });
        } catch {
          this.onStatus("offline");
          this.retry = setTimeout(() => void this.flush(), 5000);
          return;
        }
        if (res.status >= 500 || res.status === 429) {
          this.onStatus("offline");
          this.retry = setTimeout(() => void this.flush(), 5000);
          return;
        }
        this.queue.shift();
        if (!res.ok) {
          failed = true;
          continue;
        }
        const result = (await res.json()) as ScormCommitResult;
        if (result.finished) this.onFinished();
      }
      this.onStatus(failed ? "failed" : "saved");
    } finally {
      this.sending = false;
    }
  };
}
