CREATE TABLE "address_book_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"wallet_id" text NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"address_key" text NOT NULL,
	"chain" text NOT NULL,
	"tags" jsonb NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"address_since" timestamp with time zone NOT NULL,
	"request_id" uuid NOT NULL,
	"requested_by" text NOT NULL,
	"approved_by" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "address_book_policy" (
	"id" text PRIMARY KEY NOT NULL,
	"cooling_off_seconds" integer NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "address_book_entries_wallet_address" ON "address_book_entries" USING btree ("wallet_id","address_key");