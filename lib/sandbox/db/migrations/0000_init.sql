CREATE TABLE "sandbox_addresses" (
	"id" uuid PRIMARY KEY NOT NULL,
	"wallet_id" uuid NOT NULL,
	"address" text NOT NULL,
	"name" text,
	"type" text NOT NULL,
	"network" text NOT NULL,
	"derivation_path" text,
	"address_index" integer,
	"metadata" jsonb,
	"configurations" jsonb NOT NULL,
	"is_active" boolean NOT NULL,
	"private_key_sealed" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_allowances" (
	"asset_id" uuid NOT NULL,
	"owner" text NOT NULL,
	"spender" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	CONSTRAINT "sandbox_allowances_asset_id_owner_spender_pk" PRIMARY KEY("asset_id","owner","spender")
);
--> statement-breakpoint
CREATE TABLE "sandbox_assets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"blockchain_id" uuid NOT NULL,
	"address" text NOT NULL,
	"name" text NOT NULL,
	"symbol" text NOT NULL,
	"decimals" integer NOT NULL,
	"network" text NOT NULL,
	"standard" text,
	"logo_url" text NOT NULL,
	"usd_price" text NOT NULL,
	"is_active" boolean NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_balances" (
	"asset_id" uuid NOT NULL,
	"holder" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	CONSTRAINT "sandbox_balances_asset_id_holder_pk" PRIMARY KEY("asset_id","holder")
);
--> statement-breakpoint
CREATE TABLE "sandbox_beneficiaries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"wallet_id" uuid NOT NULL,
	"address" text NOT NULL,
	"name" text NOT NULL,
	"is_active" boolean NOT NULL,
	"is_default" boolean NOT NULL,
	"is_settlement" boolean NOT NULL,
	"is_whitelisted" boolean NOT NULL,
	"settlement_frequency" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_blockchains" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"symbol" text NOT NULL,
	"derivation_path" text NOT NULL,
	"is_evm_compatible" boolean NOT NULL,
	"is_l2" boolean NOT NULL,
	"token_standard" text,
	"logo_url" text NOT NULL,
	"chain_id" integer NOT NULL,
	"network" text NOT NULL,
	"gas_price_wei" text NOT NULL,
	"block_number" bigint NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "sandbox_blockchains_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "sandbox_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_nonces" (
	"chain_id" integer NOT NULL,
	"holder" text NOT NULL,
	"nonce" integer NOT NULL,
	CONSTRAINT "sandbox_nonces_chain_id_holder_pk" PRIMARY KEY("chain_id","holder")
);
--> statement-breakpoint
CREATE TABLE "sandbox_rules" (
	"id" uuid PRIMARY KEY NOT NULL,
	"wallet_id" uuid NOT NULL,
	"address_id" uuid,
	"name" text NOT NULL,
	"is_active" boolean NOT NULL,
	"order" text NOT NULL,
	"slippage_tolerance" text NOT NULL,
	"source" jsonb NOT NULL,
	"destination" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_transactions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"wallet_id" uuid NOT NULL,
	"address_id" uuid,
	"reference" text NOT NULL,
	"hash" text,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"asset_id" uuid,
	"amount" text,
	"sender_address" text NOT NULL,
	"recipient_address" text NOT NULL,
	"confirmations" integer,
	"block_number" bigint,
	"body" jsonb NOT NULL,
	"plan" jsonb,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_wallet_assets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"wallet_id" uuid NOT NULL,
	"asset_id" uuid NOT NULL,
	"is_active" boolean NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_wallets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"blockchain_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"derivation_path" text NOT NULL,
	"account_index" integer NOT NULL,
	"api_key_hash" text NOT NULL,
	"api_key_sealed" text NOT NULL,
	"credential_id" uuid NOT NULL,
	"status" text NOT NULL,
	"is_active" boolean NOT NULL,
	"auto_settlement" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "sandbox_wallets_api_key_hash_unique" UNIQUE("api_key_hash")
);
--> statement-breakpoint
CREATE TABLE "sandbox_webhook_logs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"wallet_id" uuid NOT NULL,
	"transaction_id" uuid NOT NULL,
	"event" text NOT NULL,
	"url" text NOT NULL,
	"attempts" integer NOT NULL,
	"status" text NOT NULL,
	"response" jsonb,
	"payload" jsonb NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sandbox_addresses_wallet_idx" ON "sandbox_addresses" USING btree ("wallet_id","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_beneficiaries_wallet_idx" ON "sandbox_beneficiaries" USING btree ("wallet_id","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_rules_wallet_idx" ON "sandbox_rules" USING btree ("wallet_id","address_id");--> statement-breakpoint
CREATE INDEX "sandbox_tx_wallet_idx" ON "sandbox_transactions" USING btree ("wallet_id","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_tx_address_idx" ON "sandbox_transactions" USING btree ("address_id","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_tx_status_idx" ON "sandbox_transactions" USING btree ("status");--> statement-breakpoint
CREATE INDEX "sandbox_webhooks_wallet_idx" ON "sandbox_webhook_logs" USING btree ("wallet_id","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_webhooks_tx_idx" ON "sandbox_webhook_logs" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "sandbox_webhooks_due_idx" ON "sandbox_webhook_logs" USING btree ("next_attempt_at");