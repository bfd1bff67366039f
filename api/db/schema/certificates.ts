/** Certificates (spec 3 Certificate record, 7.6; decision 020). */
import { sql } from "drizzle-orm";
import {
  doublePrecision,
  index,
  integer,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { certificateTemplates, objectives } from "./courses";
import { objectiveRecords } from "./enrolment";
import { users } from "./platform";

/** The running part of the first releases' certificate numbers (LA-2026-000123); no longer used for new ones. */
export const certificateNumberSeq = pgSequence("certificate_number_seq", { startWith: 1, increment: 1 });

/** Bits of the revocation status list, one per certificate, never reused. */
export const certificateStatusIndexSeq = pgSequence("certificate_status_index_seq", {
  startWith: 0,
  minValue: 0,
  increment: 1,
});

/**
 * One certificate per passed objective record. The template's name and the scale's passing score
 * are copied at issue, so a certificate keeps saying what it said when it was issued.
 */
export const certificateRecords = pgTable(
  "certificate_records",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    certificateNumber: text("certificate_number").notNull(),
    certificateTemplateId: uuid("certificate_template_id").references(() => certificateTemplates.id, {
      onDelete: "set null",
    }),
    templateName: text("template_name").notNull(),
    objectiveId: uuid("objective_id")
      .notNull()
      .references(() => objectives.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    objectiveRecordId: uuid("objective_record_id")
      .notNull()
      .references(() => objectiveRecords.id, { onDelete: "cascade" }),
    normalizedPassingScore: doublePrecision("normalized_passing_score"),
    expirationDate: timestamp("expiration_date", { withTimezone: true }),
    externalUrl: text("external_url"),
    certificatePdfUrl: text("certificate_pdf_url"),
    certificatePngUrl: text("certificate_png_url"),
    created: timestamp("created", { withTimezone: true }).notNull().defaultNow(),
    /** The certificate's files under DATA_DIR/storage, written once (decision 020); null until then. */
    pdfPath: text("pdf_path"),
    pngPath: text("png_path"),
    /** Its bit in the revocation status list of its credential (Bitstring Status List, decision 020). */
    statusListIndex: integer("status_list_index")
      .notNull()
      .default(sql`nextval('certificate_status_index_seq')`),
    /** Revoked: the public page and the credential's status list say so. */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** Why, as the operator gave it (`npm run certificates -- revoke <number> --reason …`, issue 32 item 4). */
    revocationReason: text("revocation_reason"),
  },
  (t) => [
    uniqueIndex("certificate_records_number_idx").on(t.certificateNumber),
    uniqueIndex("certificate_records_status_index_idx").on(t.statusListIndex),
    index("certificate_records_files_pending_idx")
      .on(t.created)
      .where(sql`${t.pdfPath} is null`),
    uniqueIndex("certificate_records_record_idx").on(t.objectiveRecordId),
    index("certificate_records_user_objective_idx").on(t.userId, t.objectiveId, t.created.desc()),
  ],
);
