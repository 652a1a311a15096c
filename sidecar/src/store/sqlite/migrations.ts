/**
 * Schema migrations, applied in order; PRAGMA user_version = how many have run.
 * Never edit a released migration: append a new one.
 *
 * Times are Unix milliseconds (INTEGER); the API turns them into ISO strings.
 */
export const MIGRATIONS: readonly string[] = [
	/* 1: the outbound webhook queue */ `
	CREATE TABLE endpoints (
		id                  TEXT PRIMARY KEY,
		url                 TEXT NOT NULL,
		description         TEXT NOT NULL DEFAULT '',
		event_types         TEXT NOT NULL DEFAULT '[]', -- JSON array; [] = every type
		status              TEXT NOT NULL CHECK (status IN ('active', 'disabled')),
		disabled_reason     TEXT,
		disabled_at         INTEGER,
		failing_since       INTEGER,                    -- first failure after the last success
		max_concurrency     INTEGER NOT NULL DEFAULT 4,
		wc_compat_signature INTEGER NOT NULL DEFAULT 0,
		created_at          INTEGER NOT NULL,
		updated_at          INTEGER NOT NULL
	);

	-- Several rows during a rotation: the current one (expires_at NULL) and older
	-- ones kept until their grace period ends, so receivers can switch at leisure.
	CREATE TABLE endpoint_secrets (
		id          INTEGER PRIMARY KEY,
		endpoint_id TEXT NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
		secret      TEXT NOT NULL,
		created_at  INTEGER NOT NULL,
		expires_at  INTEGER
	);
	CREATE INDEX endpoint_secrets_by_endpoint ON endpoint_secrets (endpoint_id);

	CREATE TABLE events (
		id           TEXT PRIMARY KEY,  -- given by WordPress; the webhook-id of every attempt
		type         TEXT NOT NULL,
		timestamp    TEXT NOT NULL,
		ordering_key TEXT,
		payload      TEXT NOT NULL,     -- the exact body bytes sent to receivers
		received_at  INTEGER NOT NULL
	);

	CREATE TABLE deliveries (
		id               INTEGER PRIMARY KEY,  -- also the order of arrival, for ordering keys
		event_id         TEXT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
		endpoint_id      TEXT NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
		ordering_key     TEXT,                 -- copied from the event, for the scheduler
		status           TEXT NOT NULL CHECK (status IN ('pending', 'in_flight', 'succeeded', 'failed', 'cancelled')),
		attempt_count    INTEGER NOT NULL DEFAULT 0, -- every attempt ever made
		cycle_attempts   INTEGER NOT NULL DEFAULT 0, -- attempts since the last (re)queue: indexes the retry schedule
		next_attempt_at  INTEGER,
		next_trigger     TEXT NOT NULL DEFAULT 'scheduled' CHECK (next_trigger IN ('scheduled', 'manual')),
		last_status_code INTEGER,
		last_error       TEXT,
		created_at       INTEGER NOT NULL,
		updated_at       INTEGER NOT NULL,
		UNIQUE (event_id, endpoint_id)
	);
	-- What is due, per endpoint (the scheduler's main query).
	CREATE INDEX deliveries_due ON deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending';
	-- Earlier unfinished deliveries of the same ordering key (the ordering check).
	CREATE INDEX deliveries_open_by_key ON deliveries (endpoint_id, ordering_key, id) WHERE status IN ('pending', 'in_flight');
	-- The next retry timer.
	CREATE INDEX deliveries_pending_at ON deliveries (next_attempt_at) WHERE status = 'pending';
	CREATE INDEX deliveries_by_status ON deliveries (status, created_at);
	CREATE INDEX deliveries_by_endpoint ON deliveries (endpoint_id, id);

	CREATE TABLE attempts (
		id               INTEGER PRIMARY KEY,
		delivery_id      INTEGER NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
		attempt_number   INTEGER NOT NULL,
		started_at       INTEGER NOT NULL,
		duration_ms      INTEGER NOT NULL,
		status_code      INTEGER,
		error_code       TEXT,
		response_excerpt TEXT,
		next_attempt_at  INTEGER,
		trigger          TEXT NOT NULL CHECK (trigger IN ('scheduled', 'manual'))
	);
	CREATE INDEX attempts_by_delivery ON attempts (delivery_id, attempt_number);
	`,
	/* 2: inbound webhook sources (secrets stay here, never in WordPress) and the verification log */ `
	CREATE TABLE inbound_sources (
		id                TEXT PRIMARY KEY,      -- the slug in the receiving URL
		scheme            TEXT NOT NULL,         -- one of INBOUND_SCHEMES
		status            TEXT NOT NULL CHECK (status IN ('active', 'disabled')),
		description       TEXT NOT NULL DEFAULT '',
		tolerance_seconds INTEGER,               -- NULL = the sidecar's inboundToleranceSeconds
		created_at        INTEGER NOT NULL,
		updated_at        INTEGER NOT NULL
	);

	-- The current secret (expires_at NULL) and older ones still accepted until their
	-- grace period ends, so the provider can switch to a new secret at its own pace.
	CREATE TABLE inbound_source_secrets (
		id         INTEGER PRIMARY KEY,
		source_id  TEXT NOT NULL REFERENCES inbound_sources (id) ON DELETE CASCADE,
		secret     TEXT NOT NULL,
		origin     TEXT NOT NULL CHECK (origin IN ('generated', 'provided')),
		created_at INTEGER NOT NULL,
		expires_at INTEGER
	);
	CREATE INDEX inbound_source_secrets_by_source ON inbound_source_secrets (source_id);

	-- One row per verification: no payload, no header, no secret.
	CREATE TABLE inbound_log (
		id       INTEGER PRIMARY KEY,
		at       INTEGER NOT NULL,
		source   TEXT NOT NULL,
		outcome  TEXT NOT NULL CHECK (outcome IN ('verified', 'refused')),
		status   INTEGER NOT NULL,
		code     TEXT,
		event_id TEXT
	);
	CREATE INDEX inbound_log_by_source ON inbound_log (source, id);
	`,
	/* 3: attempts per endpoint, newest first: an endpoint's recent success rate and last error */ `
	ALTER TABLE attempts ADD COLUMN endpoint_id TEXT;
	UPDATE attempts SET endpoint_id = (SELECT endpoint_id FROM deliveries WHERE deliveries.id = attempts.delivery_id);
	CREATE INDEX attempts_by_endpoint ON attempts (endpoint_id, started_at);
	`,
	/* 4: re-enabling an endpoint redelivers what it missed */ `
	-- 'auto' (410, or failing for days) or 'owner' (the disable route): what was missed is
	-- redelivered on enable after an automatic disable, after the owner's only when asked.
	ALTER TABLE endpoints ADD COLUMN disabled_by TEXT CHECK (disabled_by IN ('auto', 'owner'));
	UPDATE endpoints SET disabled_by = CASE WHEN disabled_reason = 'disabled by an administrator' THEN 'owner' ELSE 'auto' END
	 WHERE status = 'disabled';
	-- What failed since a time (re-enable, replay) and events received while disabled.
	CREATE INDEX deliveries_by_status_updated ON deliveries (status, updated_at);
	CREATE INDEX events_by_received ON events (received_at);
	`,
	/* 5: notices for WordPress (e.g. endpoint.disabled), kept until WordPress acknowledges them */ `
	-- Written in the transaction that changes the state they report, sent after commit.
	CREATE TABLE notices (
		id              INTEGER PRIMARY KEY,
		payload         TEXT NOT NULL,    -- the JSON body sent to WordPress
		created_at      INTEGER NOT NULL,
		attempts        INTEGER NOT NULL DEFAULT 0,
		next_attempt_at INTEGER,          -- NULL once acknowledged
		last_error      TEXT,
		acknowledged_at INTEGER
	);
	CREATE INDEX notices_due ON notices (next_attempt_at) WHERE acknowledged_at IS NULL;
	CREATE INDEX notices_acknowledged ON notices (acknowledged_at) WHERE acknowledged_at IS NOT NULL;
	`,
	/* 6: the delivery list, newest first, filtered by status, by endpoint and status, or by event type */ `
	CREATE INDEX deliveries_by_status_id ON deliveries (status, id);
	CREATE INDEX deliveries_by_endpoint_status ON deliveries (endpoint_id, status, id);
	CREATE INDEX events_by_type ON events (type, id);
	-- Superseded by the two status indexes: nothing filters deliveries on created_at.
	DROP INDEX deliveries_by_status;
	`,
	/* 7: the verification log keeps what WordPress answered the sender (202 new, 200 duplicate, 503 not stored) */ `
	-- Reported by WordPress once it has answered; NULL until then. A refusal's answer is its
	-- status column (WordPress passes the verifier's 4xx through unchanged), so it is not reported.
	ALTER TABLE inbound_log ADD COLUMN answer_status INTEGER;
	`,
	/* 8: privacy: payloads cleared after SIDECAR_PAYLOAD_RETENTION_DAYS, personal data erased on request */ `
	-- When the payload was replaced by an empty envelope (payload retention); NULL while it is whole.
	ALTER TABLE events ADD COLUMN payload_cleared_at INTEGER;
	-- When personal data in the payload was replaced by redaction markers (an erasure request).
	ALTER TABLE events ADD COLUMN redacted_at INTEGER;
	-- What the payload retention still has to clear, oldest first.
	CREATE INDEX events_payload_held ON events (received_at) WHERE payload_cleared_at IS NULL;
	CREATE INDEX attempts_excerpt_held ON attempts (started_at) WHERE response_excerpt IS NOT NULL;
	`,
	/* 9: the verification log says what the sender was told (INBOUND_OUTCOMES), not only the verdict */ `
	-- The outcome's CHECK changes, which SQLite does only by rebuilding the table. A verified row
	-- becomes verified only if WordPress reported a 2xx; unconfirmed if it reported nothing; a
	-- refusal's answer is its status (WordPress passed it on), now written down.
	CREATE TABLE inbound_log_v9 (
		id            INTEGER PRIMARY KEY,
		at            INTEGER NOT NULL,
		source        TEXT NOT NULL,
		outcome       TEXT NOT NULL CHECK (outcome IN ('verified', 'refused', 'not_stored', 'timed_out', 'unconfirmed')),
		status        INTEGER NOT NULL,
		code          TEXT,
		event_id      TEXT,
		answer_status INTEGER
	);
	INSERT INTO inbound_log_v9 (id, at, source, outcome, status, code, event_id, answer_status)
	SELECT id, at, source,
		CASE
			WHEN outcome = 'refused' THEN 'refused'
			WHEN answer_status BETWEEN 200 AND 299 THEN 'verified'
			WHEN answer_status IS NULL THEN 'unconfirmed'
			ELSE 'not_stored'
		END,
		status, code, event_id,
		CASE WHEN outcome = 'refused' THEN status ELSE answer_status END
	FROM inbound_log;
	DROP TABLE inbound_log;
	ALTER TABLE inbound_log_v9 RENAME TO inbound_log;
	CREATE INDEX inbound_log_by_source ON inbound_log (source, id);
	`,
	/* 10: an endpoint with a large queue is deleted at once and its deliveries in the background */ `
	-- When the endpoint was deleted: hidden from every read and disabled, its row removed with the
	-- last of its deliveries (EndpointBacklog.purgeDeleted); NULL for a live endpoint.
	ALTER TABLE endpoints ADD COLUMN deleted_at INTEGER;
	`,
	/* 11: the re-send on recovery (model/recovery.ts): the endpoint's setting, and when a delivery was re-sent */ `
	-- On by default, for the endpoints already there too: an outage loses nothing without a manual step.
	ALTER TABLE endpoints ADD COLUMN resend_failed_on_recovery INTEGER NOT NULL DEFAULT 1;
	-- When the delivery was last queued again because its endpoint recovered; NULL if never.
	ALTER TABLE deliveries ADD COLUMN resent_on_recovery_at INTEGER;
	`,
];
