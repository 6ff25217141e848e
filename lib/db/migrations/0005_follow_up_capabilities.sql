ALTER TABLE "operation_items" DROP CONSTRAINT "operation_items_reference_unique";--> statement-breakpoint
ALTER TABLE "operation_items" ADD COLUMN "wallet_id" text;--> statement-breakpoint
UPDATE "operation_items" SET "wallet_id" = r."wallet_id" FROM "operation_requests" r WHERE r."id" = "operation_items"."request_id";--> statement-breakpoint
ALTER TABLE "operation_items" ALTER COLUMN "wallet_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "operation_requests" ADD COLUMN "follow_up_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "operation_requests" ADD COLUMN "next_follow_up_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "operation_requests" ADD COLUMN "follow_up_parked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "operation_requests" ADD COLUMN "last_lookup_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "operation_requests" ADD COLUMN "duplicates" jsonb;--> statement-breakpoint
ALTER TABLE "operation_requests" ADD COLUMN "resolution_proposal" jsonb;--> statement-breakpoint
ALTER TABLE "wallet_connections" ADD COLUMN "capabilities" jsonb;--> statement-breakpoint
ALTER TABLE "wallet_connections" ADD COLUMN "capabilities_checked_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "operation_items_wallet_reference" ON "operation_items" USING btree ("wallet_id","reference");