CREATE TABLE "account_provenance" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "account_provenance_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"subject" text NOT NULL,
	"actor" text NOT NULL,
	"kind" text NOT NULL,
	"request_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "account_provenance_subject" ON "account_provenance" USING btree ("subject");--> statement-breakpoint
-- Accounts made before this table: their creator asked for them, and whoever last gave them their role asked for it.
INSERT INTO "account_provenance" ("subject", "actor", "kind", "at")
SELECT "id"::text, "created_by"::text, 'requested', "created_at" FROM "users" WHERE "created_by" IS NOT NULL;
--> statement-breakpoint
INSERT INTO "account_provenance" ("subject", "actor", "kind", "at")
SELECT "id"::text, "role_granted_by"::text, 'role', "updated_at" FROM "users"
WHERE "role_granted_by" IS NOT NULL AND "role_granted_by" IS DISTINCT FROM "created_by";
