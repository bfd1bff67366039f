-- A SCORM package grades itself: its score counts out of the activity's maximum, 100 when the activity
-- had none (packages imported before this kept no score at all).
UPDATE "activities" SET "max_score" = 100 WHERE "max_score" IS NULL AND "content" ? 'scorm';
