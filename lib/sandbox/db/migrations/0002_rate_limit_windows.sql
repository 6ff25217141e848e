CREATE TABLE "sandbox_rate_limit_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" bigint NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sandbox_rate_limit_windows_window_start" ON "sandbox_rate_limit_windows" USING btree ("window_start");