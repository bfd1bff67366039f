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

/** Linux reports CPU times in clock ticks of 1/100 s (USER_HZ) on every architecture Node runs on. */
const TICK_MS = 10;

const ticksOf = (statLine: string) =>
  statLine
    .slice(statLine.lastIndexOf(")") + 2)
    .split(" ")
    .slice(11, 13)
    .reduce((sum, n) => sum + Number(n), 0);

/** CPU ticks of the machine (all CPUs: busy, idle, stolen by the hypervisor) and of `pid`'s main thread. */
function cpuSnapshot(pid: number) {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number);
  let main = Number.NaN;
  try {
    main = ticksOf(readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8"));
  } catch {
    // The process ended.
  }
  return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal, main, at: performance.now() };
}

export interface CpuReading {
  /** Share of the machine's CPU time the hypervisor gave to other guests (steal). */
  stealPct: number;
  /** Share of the machine's CPU time nobody used. */
  idlePct: number;
  /** The server's main thread: share of one CPU it used. */
  mainBusyPct: number;
  /** The server's main thread's CPU time, in ms. */
  mainMs: number;
}

/**
 * Starts measuring the CPU time of the machine and of the server's main thread (which renders every
 * page, so its busy share is the page queue's utilisation); the function returned stops and reads it.
 * Where figures move between runs, steal says whether the machine itself gave less.
 */
export function cpuMeter(pid: number): () => CpuReading {
  const before = cpuSnapshot(pid);
  return () => {
    const after = cpuSnapshot(pid);
    const total = after.busy + after.idle + after.steal - (before.busy + before.idle + before.steal);
    const mainMs = (after.main - before.main) * TICK_MS;
    return {
      stealPct: total > 0 ? (100 * (after.steal - before.steal)) / total : Number.NaN,
      idlePct: total > 0 ? (100 * (after.idle - before.idle)) / total : Number.NaN,
      mainBusyPct: (100 * mainMs) / (after.at - before.at),
      mainMs,
    };
  };
}
