/**
 * How the embedded API sends e-mail (decision 021, 036): through SMTP when SMTP_URL is set (nodemailer);
 * otherwise each message is written as an .eml file to DATA_DIR/outbox, where a demo or a developer can
 * open its links. Shared by every job that sends mail.
 */
import { mkdirSync } from "node:fs";
import { writeFileAtomicSync } from "../files/temporary";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import type { Transporter } from "nodemailer";

export interface MailOptions {
  appUrl: string;
  dataDir?: string;
  smtpUrl?: string;
  from?: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (e.g. List-Unsubscribe). */
  headers?: Record<string, string>;
}

const DEFAULT_FROM = "Learner app <no-reply@learner-app.local>";

/** Where .eml files go without SMTP: DATA_DIR/outbox (a temporary folder without DATA_DIR). */
function outboxDir(dataDir: string | undefined): string {
  return dataDir ? resolve(dataDir, "outbox") : join(tmpdir(), `learner-app-outbox-${process.pid}`);
}

/** A sender for one run of a job: `send` delivers one message; `close` ends the connection. */
export function openMailer(options: MailOptions) {
  const from = options.from ?? DEFAULT_FROM;
  // nodemailer (≈3 MB of heap) is imported by the first message, not by every node at start (decision 038).
  let transport: Promise<Transporter> | null = null;
  const open = () =>
    (transport ??= import("nodemailer").then(({ default: nodemailer }) =>
      options.smtpUrl
        ? nodemailer.createTransport(options.smtpUrl)
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }),
    ));
  const outbox = outboxDir(options.dataDir);
  if (!options.smtpUrl) mkdirSync(outbox, { recursive: true });
  return {
    /** Sends (or writes) the message; `name` names the .eml file without SMTP. Returns the file or null. */
    async send(message: MailMessage, name: string): Promise<string | null> {
      const info = await (await open()).sendMail({ from, ...message });
      if (options.smtpUrl) return null;
      const file = join(outbox, `${new Date().toISOString().replace(/[:.]/g, "-")}-${name}.eml`);
      // Whole or not at all: a mail reader never picks up half a message.
      writeFileAtomicSync(file, (info as unknown as { message: Buffer }).message);
      return file;
    },
    close: () => {
      void transport?.then((t) => t.close());
    },
  };
}
