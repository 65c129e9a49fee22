-- Tokens ended by a logout before their expiry, keyed by the SHA-256 of the token (hex). The session statement
-- (users.repository.ts, session_user_with_grants) refuses them on every server process; an hourly step removes the
-- rows of tokens that have expired (modules/auth/session-cleanup.ts). docs/DECISIONS.md, "Sessions that really end".
CREATE TABLE "revoked_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone DEFAULT now() NOT NULL
);
