/**
 * The shared store's schema on MySQL 8.0+ / MariaDB 10.6+, the same tables as the SQLite
 * schema (migrations.ts) plus what several instances need: a lease on each claimed delivery
 * (claimed_by, claimed_until) and, on each attempt, the instance that made it and when it
 * ended. sidecar_schema holds how many migrations have run. Never edit a released
 * migration: append one. Each migration is a list of statements (DDL commits on its own in
 * MySQL, so the version moves after the last statement). A migration cut short is simply run
 * again: tables are created IF NOT EXISTS, and the runner takes a column or key that is
 * already there (MySQL has no ADD COLUMN) as a statement that already ran.
 *
 * Times are Unix milliseconds (BIGINT), as on SQLite.
 */
export const MYSQL_MIGRATIONS: readonly ( readonly string[] )[] = [
	/* 1: everything the sidecar keeps */ [
		`CREATE TABLE IF NOT EXISTS endpoints (
			id                  VARCHAR(64) NOT NULL PRIMARY KEY,
			url                 TEXT NOT NULL,
			description         TEXT NOT NULL,
			event_types         TEXT NOT NULL,
			status              VARCHAR(16) NOT NULL,
			disabled_reason     TEXT NULL,
			disabled_at         BIGINT NULL,
			disabled_by         VARCHAR(16) NULL,
			failing_since       BIGINT NULL,
			max_concurrency     INT NOT NULL DEFAULT 4,
			wc_compat_signature TINYINT NOT NULL DEFAULT 0,
			created_at          BIGINT NOT NULL,
			updated_at          BIGINT NOT NULL,
			CHECK (status IN ('active', 'disabled'))
		) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
		`CREATE TABLE IF NOT EXISTS endpoint_secrets (
			id          BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
			endpoint_id VARCHAR(64) NOT NULL,
			secret      TEXT NOT NULL,
			created_at  BIGINT NOT NULL,
			expires_at  BIGINT NULL,
			KEY endpoint_secrets_by_endpoint (endpoint_id),
			FOREIGN KEY (endpoint_id) REFERENCES endpoints (id) ON DELETE CASCADE
		) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
		`CREATE TABLE IF NOT EXISTS events (
			seq                BIGINT NOT NULL AUTO_INCREMENT UNIQUE,
			id                 VARCHAR(100) NOT NULL PRIMARY KEY,
			type               VARCHAR(100) NOT NULL,
			timestamp          VARCHAR(64) NOT NULL,
			ordering_key       VARCHAR(200) NULL,
			payload            MEDIUMTEXT NOT NULL,
			received_at        BIGINT NOT NULL,
			payload_cleared_at BIGINT NULL,
			redacted_at        BIGINT NULL,
			KEY events_by_received (received_at),
			KEY events_by_type (type, id)
		) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
		`CREATE TABLE IF NOT EXISTS deliveries (
			id               BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
			event_id         VARCHAR(100) NOT NULL,
			endpoint_id      VARCHAR(64) NOT NULL,
			ordering_key     VARCHAR(200) NULL,
			status           VARCHAR(16) NOT NULL,
			attempt_count    INT NOT NULL DEFAULT 0,
			cycle_attempts   INT NOT NULL DEFAULT 0,
			next_attempt_at  BIGINT NULL,
			next_trigger     VARCHAR(16) NOT NULL DEFAULT 'scheduled',
			last_status_code INT NULL,
			last_error       TEXT NULL,
			claimed_by       VARCHAR(64) NULL,
			claimed_until    BIGINT NULL,
			created_at       BIGINT NOT NULL,
			updated_at       BIGINT NOT NULL,
			UNIQUE KEY deliveries_event_endpoint (event_id, endpoint_id),
			KEY deliveries_due (endpoint_id, status, next_attempt_at),
			KEY deliveries_open_by_key (endpoint_id, ordering_key, status, id),
			KEY deliveries_leased (endpoint_id, status, claimed_until),
			KEY deliveries_by_status_id (status, id),
			KEY deliveries_by_status_updated (status, updated_at),
			FOREIGN KEY (event_id) REFERENCES events (id) ON DELETE CASCADE,
			FOREIGN KEY (endpoint_id) REFERENCES endpoints (id) ON DELETE CASCADE,
			CHECK (status IN ('pending', 'in_flight', 'succeeded', 'failed', 'cancelled')),
			CHECK (next_trigger IN ('scheduled', 'manual'))
		) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
		`CREATE TABLE IF NOT EXISTS attempts (
			id               BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
			delivery_id      BIGINT NOT NULL,
			endpoint_id      VARCHAR(64) NULL,
			instance_id      VARCHAR(64) NULL,
			attempt_number   INT NOT NULL,
			started_at       BIGINT NOT NULL,
			ended_at         BIGINT NULL,
			duration_ms      INT NOT NULL,
			status_code      INT NULL,
			error_code       VARCHAR(100) NULL,
			response_excerpt TEXT NULL,
			next_attempt_at  BIGINT NULL,
			\`trigger\`        VARCHAR(16) NOT NULL,
			KEY attempts_by_delivery (delivery_id, attempt_number),
			KEY attempts_by_endpoint (endpoint_id, started_at),
			KEY attempts_by_started (started_at),
			FOREIGN KEY (delivery_id) REFERENCES deliveries (id) ON DELETE CASCADE
		) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
		`CREATE TABLE IF NOT EXISTS inbound_sources (
			id                VARCHAR(100) NOT NULL PRIMARY KEY,
			scheme            VARCHAR(64) NOT NULL,
			status            VARCHAR(16) NOT NULL,
			description       TEXT NOT NULL,
			tolerance_seconds INT NULL,
			created_at        BIGINT NOT NULL,
			updated_at        BIGINT NOT NULL,
			CHECK (status IN ('active', 'disabled'))
		) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
		`CREATE TABLE IF NOT EXISTS inbound_source_secrets (
			id         BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
			source_id  VARCHAR(100) NOT NULL,
			secret     TEXT NOT NULL,
			origin     VARCHAR(16) NOT NULL,
			created_at BIGINT NOT NULL,
			expires_at BIGINT NULL,
			KEY inbound_source_secrets_by_source (source_id),
			FOREIGN KEY (source_id) REFERENCES inbound_sources (id) ON DELETE CASCADE
		) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
		`CREATE TABLE IF NOT EXISTS inbound_log (
			id            BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
			at            BIGINT NOT NULL,
			source        VARCHAR(100) NOT NULL,
			outcome       VARCHAR(16) NOT NULL,
			status        INT NOT NULL,
			code          VARCHAR(100) NULL,
			event_id      VARCHAR(200) NULL,
			answer_status INT NULL,
			KEY inbound_log_by_source (source, id)
		) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
		`CREATE TABLE IF NOT EXISTS notices (
			id              BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
			payload         MEDIUMTEXT NOT NULL,
			created_at      BIGINT NOT NULL,
			attempts        INT NOT NULL DEFAULT 0,
			next_attempt_at BIGINT NULL,
			last_error      TEXT NULL,
			acknowledged_at BIGINT NULL,
			KEY notices_due (acknowledged_at, next_attempt_at)
		) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
	],
	/* 2: payload retention finds what it still has to clear without rescanning what it cleared */ [
		// payload_cleared_at IS NULL is an index lookup in MySQL, and received_at then gives the order.
		'ALTER TABLE events ADD KEY events_payload_held (payload_cleared_at, received_at)',
		// A TEXT column cannot be indexed whole: a virtual column says whether the excerpt is still held.
		`ALTER TABLE attempts ADD COLUMN excerpt_held TINYINT AS (response_excerpt IS NOT NULL) VIRTUAL`,
		'ALTER TABLE attempts ADD KEY attempts_excerpt_held (excerpt_held, started_at)',
	],
	/* 3: the verification log says what the sender was told (INBOUND_OUTCOMES), not only the verdict */ [
		// A verified row stays verified only if WordPress reported a 2xx. Run again, it changes nothing.
		`UPDATE inbound_log SET outcome = CASE
			WHEN answer_status BETWEEN 200 AND 299 THEN 'verified'
			WHEN answer_status IS NULL THEN 'unconfirmed'
			ELSE 'not_stored' END
		 WHERE outcome = 'verified'`,
		// A refusal's answer is its status (WordPress passed it on), now written down.
		"UPDATE inbound_log SET answer_status = status WHERE outcome = 'refused' AND answer_status IS NULL",
	],
	/* 4: an endpoint with a large queue is deleted at once and its deliveries in the background */ [
		// When it was deleted: hidden from every read and disabled, the row removed with the last of
		// its deliveries (EndpointBacklog.purgeDeleted); NULL for a live endpoint.
		'ALTER TABLE endpoints ADD COLUMN deleted_at BIGINT NULL',
	],
	/* 5: the re-send on recovery (model/recovery.ts): the endpoint's setting, and when a delivery was re-sent */ [
		// On by default, for the endpoints already there too. Both columns are appended: an instant ALTER on MariaDB 10.3+ and MySQL 8.0.29+.
		'ALTER TABLE endpoints ADD COLUMN resend_failed_on_recovery TINYINT NOT NULL DEFAULT 1',
		'ALTER TABLE deliveries ADD COLUMN resent_on_recovery_at BIGINT NULL',
	],
];
