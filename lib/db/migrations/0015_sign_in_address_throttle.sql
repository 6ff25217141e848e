ALTER TABLE "login_attempts" ADD COLUMN "client_address" text;--> statement-breakpoint
CREATE INDEX "login_attempts_client_address_at" ON "login_attempts" USING btree ("client_address","at");