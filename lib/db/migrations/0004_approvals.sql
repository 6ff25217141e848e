CREATE TABLE "approval_policies" (
	"operation_type" text PRIMARY KEY NOT NULL,
	"approvals" integer NOT NULL,
	"threshold_usd" numeric,
	"expiry_seconds" integer NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"request_id" uuid,
	"message" text NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operation_approvals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"approver_id" text NOT NULL,
	"approver_email" text NOT NULL,
	"role" text NOT NULL,
	"decision" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operation_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operation_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"request_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"actor_email" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operation_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"index" integer NOT NULL,
	"reference" text NOT NULL,
	"transaction_id" text,
	"hash" text,
	"status" text,
	"confirmations" integer,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operation_items_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
CREATE TABLE "operation_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"wallet_id" text NOT NULL,
	"address_id" text,
	"payload" jsonb NOT NULL,
	"payload_hash" text NOT NULL,
	"review" jsonb NOT NULL,
	"summary" text NOT NULL,
	"amount_usd" numeric,
	"required_approvals" integer NOT NULL,
	"requester_id" text NOT NULL,
	"requester_email" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"submit_attempts" integer DEFAULT 0 NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"last_error" text,
	"confirmed_absent_at" timestamp with time zone,
	"result" jsonb,
	"reject_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_request_id_operation_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."operation_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operation_approvals" ADD CONSTRAINT "operation_approvals_request_id_operation_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."operation_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operation_events" ADD CONSTRAINT "operation_events_request_id_operation_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."operation_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operation_items" ADD CONSTRAINT "operation_items_request_id_operation_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."operation_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_user" ON "notifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "operation_approvals_once" ON "operation_approvals" USING btree ("request_id","approver_id");--> statement-breakpoint
CREATE INDEX "operation_events_request" ON "operation_events" USING btree ("request_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "operation_items_position" ON "operation_items" USING btree ("request_id","index");--> statement-breakpoint
CREATE INDEX "operation_items_transaction" ON "operation_items" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "operation_requests_status" ON "operation_requests" USING btree ("status");--> statement-breakpoint
CREATE INDEX "operation_requests_requester" ON "operation_requests" USING btree ("requester_id");--> statement-breakpoint
CREATE INDEX "operation_requests_created" ON "operation_requests" USING btree ("created_at");