CREATE TABLE "spending_limits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"wallet_id" text,
	"scope" text NOT NULL,
	"window_hours" integer NOT NULL,
	"unit" text NOT NULL,
	"asset_symbol" text,
	"limit_amount" numeric NOT NULL,
	"on_breach" text NOT NULL,
	"extra_approvals" integer DEFAULT 0 NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
