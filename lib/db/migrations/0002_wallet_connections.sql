CREATE TABLE "wallet_connections" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"blockchain" text NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"api_key_sealed" text NOT NULL,
	"api_key_last4" text NOT NULL,
	"previous_api_key_sealed" text,
	"previous_key_valid_until" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
