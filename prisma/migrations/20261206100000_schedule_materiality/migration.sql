-- How a schedule's refresh decides a value changed: "type" compares it as its column type reads
-- it; "model" also asks the column's model whether a text change is material.
ALTER TABLE "schedules" ADD COLUMN "materiality" TEXT NOT NULL DEFAULT 'type';
