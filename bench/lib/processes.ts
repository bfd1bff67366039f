/**
 * The server's processes as the operating system sees them (`/proc`): resident memory of its process
 * group, each process's command line, and whether a transpiler runs in it (decision 038: production
 * runs compiled JavaScript, no tsx or esbuild).
 */
import { readdirSync, readFileSync } from "node:fs";

export interface GroupProcess {
  pid: number;
  rssBytes: number;
  threads: number;
  command: string;
}

/** Every process of the group `pgid` (the bench starts the server as a group leader). */
export function groupProcesses(pgid: number): GroupProcess[] {
  const out: GroupProcess[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name (which may hold spaces) start at ") ": state ppid pgrp …
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      out.push({
        pid: Number(entry),
        rssBytes: Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024,
        threads: Number(/Threads:\s+(\d+)/.exec(status)?.[1] ?? 0),
        command: readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").filter(Boolean).join(" "),
      });
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/** The group's resident memory: every process summed, and the largest one (the node process serving). */
export function groupRss(pgid: number): { total: number; largest: number } {
  const all = groupProcesses(pgid);
  return {
    total: all.reduce((n, p) => n + p.rssBytes, 0),
    largest: all.reduce((n, p) => Math.max(n, p.rssBytes), 0),
  };
}

/** Processes of the group that are, or load, a transpiler (tsx's loader, esbuild's service). */
export function transpilers(pgid: number): GroupProcess[] {
  return groupProcesses(pgid).filter((p) => /\btsx\b|esbuild/.test(p.command));
}

export const mb = (bytes: number) => bytes / (1024 * 1024);
