import type { ScormCommit, ScormCommitResult } from "#domain/contract/scorm";

/** What the learner sees of the queue: everything saved, commits on their way, or waiting for the network. */
export type SaveStatus = "saved" | "pending" | "offline" | "failed";

/** Chromium and Firefox refuse keepalive requests beyond 64 KB of bodies in flight (the Fetch standard's limit). */
const KEEPALIVE_BUDGET = 60_000;

/**
 * The SCORM player's commits (issue 15 item 4, decision 025), sent one at a time in the order the
 * SCO made them. Each carries the SCO's next sequence number, so the server applies it once even when
 * a retry repeats it or an older one arrives late. When the network fails the commit stays at the head
 * of the queue and is retried when the browser is back online (or every few seconds); a refusal (4xx)
 * drops it and says so. Until the server has them, the queued commits are also kept in the browser's
 * storage under the activity workflow: a page closed (or a browser that crashed) while offline loses
 * nothing — the next visit sends them first and the SCO resumes from the newest of them. The server's
 * sequence check makes a commit sent twice count once.
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
    private readonly storageKey: string,
  ) {
    for (const [sco, n] of Object.entries(initial)) this.sequences.set(sco, n);
    // Commits a previous visit could not send: those the server has not applied yet go first.
    for (const commit of this.stored()) {
      if (commit.sequence <= (initial[commit.scoId] ?? 0)) continue;
      this.queue.push(commit);
      this.sequences.set(commit.scoId, Math.max(commit.sequence, this.sequences.get(commit.scoId) ?? 0));
    }
    this.persist();
    window.addEventListener("online", this.flush);
    if (this.queue.length > 0) {
      this.onStatus("pending");
      void this.flush();
    }
  }

  /** The newest commit of each SCO that only this browser has yet (from a previous visit), to resume from. */
  unsent(): Record<string, ScormCommit> {
    return Object.fromEntries(this.queue.map((c) => [c.scoId, c]));
  }

  /** Queues one commit of a SCO's kept data (its sequence number is the queue's to give). */
  push(commit: Omit<ScormCommit, "sequence">) {
    const sequence = (this.sequences.get(commit.scoId) ?? 0) + 1;
    this.sequences.set(commit.scoId, sequence);
    this.queue.push({ ...commit, sequence });
    this.persist();
    this.onStatus("pending");
    void this.flush();
  }

  /**
   * The page is going away (pagehide): what is still queued is sent at once with `keepalive`, which the
   * browser delivers after the page is gone (an ordinary request is cancelled with it). Sent together,
   * not one after another: each is a whole snapshot with its sequence number, so the server applies
   * the newest and refuses the older ones, whatever order they arrive in. The copy in storage stays
   * until a later visit sees them applied. Keepalive bodies share a 64 KB budget; what exceeds it is
   * left for that later visit.
   */
  sendWhileLeaving() {
    let budget = KEEPALIVE_BUDGET;
    for (const commit of this.queue) {
      const body = JSON.stringify(commit);
      if (body.length > budget) break;
      budget -= body.length;
      fetch(this.url, { method: "POST", headers: { "Content-Type": "application/json" }, body, keepalive: true }).catch(
        () => undefined,
      );
    }
  }

  get pending(): number {
    return this.queue.length;
  }

  dispose() {
    window.removeEventListener("online", this.flush);
    if (this.retry) clearTimeout(this.retry);
  }

  private stored(): ScormCommit[] {
    try {
      const value: unknown = JSON.parse(localStorage.getItem(this.storageKey) ?? "[]");
      // Commits kept before attempts were counted belong to the first attempt.
      return Array.isArray(value) ? value.filter(isCommit).map((c) => ({ ...c, attempt: c.attempt ?? 1 })) : [];
    } catch {
      return []; // storage off (a locked-down browser) or garbled: nothing kept
    }
  }

  /** Mirrors the queue in the browser's storage (best effort: without storage it lives in memory only). */
  private persist() {
    try {
      if (this.queue.length === 0) localStorage.removeItem(this.storageKey);
      else localStorage.setItem(this.storageKey, JSON.stringify(this.queue));
    } catch {
      // Storage off or full: the queue still works while the page is open.
    }
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
        this.persist();
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

function isCommit(value: unknown): value is ScormCommit {
  const c = value as ScormCommit | null;
  return (
    typeof c === "object" &&
    c !== null &&
    typeof c.scoId === "string" &&
    Number.isInteger(c.sequence) &&
    typeof c.cmi === "object" &&
    c.cmi !== null &&
    (c.attempt === undefined || Number.isInteger(c.attempt))
  );
}
