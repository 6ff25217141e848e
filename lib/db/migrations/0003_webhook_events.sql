CREATE TABLE "webhook_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dedupe_key" text NOT NULL,
	"wallet_id" text NOT NULL,
	"event" text NOT NULL,
	"transaction_id" text NOT NULL,
	"status" text NOT NULL,
	"type" text NOT NULL,
	"reference" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_dedupe_key" ON "webhook_events" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "webhook_events_wallet_received" ON "webhook_events" USING btree ("wallet_id","received_at");--> statement-breakpoint
CREATE INDEX "webhook_events_transaction" ON "webhook_events" USING btree ("transaction_id");