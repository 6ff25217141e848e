CREATE TABLE "payout_schedule_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"schedule_id" uuid NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"operation_request_id" uuid,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"wallet_id" text NOT NULL,
	"name" text NOT NULL,
	"source" text NOT NULL,
	"cadence" text NOT NULL,
	"day_of_week" integer,
	"day_of_month" integer,
	"time_of_day" text NOT NULL,
	"starts_on" text NOT NULL,
	"rows" jsonb NOT NULL,
	"status" text NOT NULL,
	"approved_request_id" uuid,
	"owner_id" uuid NOT NULL,
	"owner_email" text NOT NULL,
	"next_run_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_token_idempotency" (
	"token_id" uuid NOT NULL,
	"key" text NOT NULL,
	"body_hash" text NOT NULL,
	"operation_request_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_token_idempotency_token_id_key_pk" PRIMARY KEY("token_id","key")
);
--> statement-breakpoint
CREATE TABLE "service_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"wallet_ids" jsonb NOT NULL,
	"daily_cap_usd" numeric NOT NULL,
	"min_approvals" integer DEFAULT 2 NOT NULL,
	"allowed_cidrs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rate_limit_per_minute" integer DEFAULT 60 NOT NULL,
	"webhook_url" text,
	"webhook_secret_sealed" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by" uuid NOT NULL,
	"created_by_email" text NOT NULL,
	"secret_seen_by" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"approved_by" text,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	"last_used_at" timestamp with time zone,
	"rotated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payout_schedule_runs" ADD CONSTRAINT "payout_schedule_runs_schedule_id_payout_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."payout_schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_schedule_runs_once" ON "payout_schedule_runs" USING btree ("schedule_id","due_at");--> statement-breakpoint
CREATE INDEX "payout_schedules_due" ON "payout_schedules" USING btree ("status","next_run_at");--> statement-breakpoint
CREATE INDEX "service_tokens_prefix" ON "service_tokens" USING btree ("prefix");