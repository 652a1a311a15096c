<?php
/**
 * The idempotency keys table: one row per (user, scope, key), holding the first answer.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Manufacturing;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Lives in the WordPress database because a retry may reach any web server of the site.
 * UNIQUE (user_id, scope, key_hash) plus INSERT IGNORE makes the claim of a key one atomic
 * statement (as Inbound_Store stores an event once): of any number of concurrent requests
 * with one key, exactly one inserts the row and does the work; the others read the row and
 * get its answer, a refusal (another body) or "in progress".
 *
 * A claim holds a lease: a request that died while holding it (a fatal error, a killed
 * worker) leaves a row without an answer, which the next request with the key takes over
 * once the lease is over, with a compare-and-set on the claim token. The key is stored as
 * its SHA-256, so the unique index stays within every MySQL's key length limit whatever
 * the key's length.
 */
final class Idempotency_Store {

	const DB_VERSION_OPTION = 'service_integration_idempotency_db';
	const DB_VERSION        = '1';

	/**
	 * How long a key answers as the first time (the IETF draft and Stripe: 24 hours).
	 */
	const TTL = DAY_IN_SECONDS;

	/**
	 * How long a claim holds before another request may take the key over.
	 */
	const LEASE_SECONDS = 60;

	/**
	 * Rows the purge deletes at most per run.
	 */
	const PURGE_BATCH = 1000;

	/**
	 * Table name.
	 */
	public static function table(): string {
		global $wpdb;
		return $wpdb->prefix . 'si_idempotency_keys';
	}

	/**
	 * Creates or upgrades the table (dbDelta: idempotent).
	 */
	public static function install(): void {
		global $wpdb;
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		$charset = $wpdb->get_charset_collate();
		$table   = self::table();
		dbDelta(
			"CREATE TABLE {$table} (
				id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
				user_id bigint(20) unsigned NOT NULL,
				scope varchar(64) NOT NULL,
				key_hash char(64) NOT NULL,
				fingerprint char(64) NOT NULL,
				claim_token varchar(32) NOT NULL DEFAULT '',
				locked_until datetime NULL DEFAULT NULL,
				response_status smallint(5) unsigned NULL DEFAULT NULL,
				response_data longtext NULL,
				response_meta longtext NULL,
				created_at datetime NOT NULL,
				expires_at datetime NOT NULL,
				PRIMARY KEY  (id),
				UNIQUE KEY user_scope_key (user_id, scope, key_hash),
				KEY expires_at (expires_at)
			) {$charset};"
		);
		// Autoloaded: the version checks run on every request (Lifecycle::AUTOLOADED_OPTIONS).
		update_option( self::DB_VERSION_OPTION, self::DB_VERSION, true );
	}

	/**
	 * Claims a key for one request, or says why not.
	 *
	 * @param int    $user_id     User the key belongs to.
	 * @param string $scope       What the key is for (one route).
	 * @param string $key         The key, as Idempotency_Key::parse() gave it.
	 * @param string $fingerprint The request's Idempotency_Key::fingerprint().
	 * @return array{state:string, id?:int, token?:string, status?:int, data?:array, meta?:array, retry_after?:int}
	 *         state `claimed` (id, token: do the work, then complete() or release()),
	 *         `replay` (status, data, meta: the first answer), `mismatch` (the key was used
	 *         with another request), `in_progress` (retry_after seconds) or `error`.
	 */
	public static function claim( int $user_id, string $scope, string $key, string $fingerprint ): array {
		global $wpdb;
		$table    = self::table();
		$key_hash = hash( 'sha256', $key );
		// Twice at most: a row that expired, or was released meanwhile, is gone for the second insert.
		for ( $attempt = 0; $attempt < 2; $attempt++ ) {
			$now      = time();
			$token    = wp_generate_password( 32, false );
			$inserted = $wpdb->query(
				$wpdb->prepare(
					"INSERT IGNORE INTO {$table} (user_id, scope, key_hash, fingerprint, claim_token, locked_until, created_at, expires_at) VALUES (%d, %s, %s, %s, %s, %s, %s, %s)",
					$user_id,
					$scope,
					$key_hash,
					$fingerprint,
					$token,
					gmdate( 'Y-m-d H:i:s', $now + self::LEASE_SECONDS ),
					gmdate( 'Y-m-d H:i:s', $now ),
					gmdate( 'Y-m-d H:i:s', $now + self::TTL )
				)
			);
			if ( false === $inserted ) {
				return array( 'state' => 'error' );
			}
			if ( 1 === (int) $inserted ) {
				return array(
					'state' => 'claimed',
					'id'    => (int) $wpdb->insert_id,
					'token' => $token,
				);
			}
			$row = $wpdb->get_row( $wpdb->prepare( "SELECT * FROM {$table} WHERE user_id = %d AND scope = %s AND key_hash = %s", $user_id, $scope, $key_hash ) );
			if ( ! $row ) {
				continue;
			}
			if ( self::timestamp( $row->expires_at ) <= $now ) {
				// Past its 24 hours the key is new again (the purge may not have run yet).
				$wpdb->query( $wpdb->prepare( "DELETE FROM {$table} WHERE id = %d AND expires_at = %s", $row->id, $row->expires_at ) );
				continue;
			}
			return self::existing( $row, $fingerprint, $now );
		}
		return array(
			'state'       => 'in_progress',
			'retry_after' => 1,
		);
	}

	/**
	 * What a request meets when its key has a live row.
	 *
	 * @param object $row         The row.
	 * @param string $fingerprint The request's fingerprint.
	 * @param int    $now         Unix time.
	 * @return array See claim().
	 */
	private static function existing( object $row, string $fingerprint, int $now ): array {
		global $wpdb;
		if ( ! hash_equals( (string) $row->fingerprint, $fingerprint ) ) {
			return array( 'state' => 'mismatch' );
		}
		if ( null !== $row->response_status ) {
			// Top level as an array (WordPress's response filters expect one), objects inside kept as objects.
			return array(
				'state'  => 'replay',
				'status' => (int) $row->response_status,
				'data'   => (array) json_decode( (string) $row->response_data ),
				'meta'   => (array) json_decode( (string) $row->response_meta, true ),
			);
		}
		$locked_until = self::timestamp( (string) $row->locked_until );
		if ( $locked_until > $now ) {
			return array(
				'state'       => 'in_progress',
				'retry_after' => $locked_until - $now,
			);
		}
		// Abandoned by a request that died: take it over, unless another request just did.
		$token = wp_generate_password( 32, false );
		$taken = $wpdb->query(
			$wpdb->prepare(
				'UPDATE ' . self::table() . ' SET claim_token = %s, locked_until = %s WHERE id = %d AND claim_token = %s AND response_status IS NULL',
				$token,
				gmdate( 'Y-m-d H:i:s', $now + self::LEASE_SECONDS ),
				$row->id,
				$row->claim_token
			)
		);
		if ( 1 === (int) $taken ) {
			return array(
				'state' => 'claimed',
				'id'    => (int) $row->id,
				'token' => $token,
			);
		}
		return array(
			'state'       => 'in_progress',
			'retry_after' => 1,
		);
	}

	/**
	 * Records the answer of a claimed key, for its replays.
	 *
	 * @param int    $id     Row id.
	 * @param string $token  Claim token.
	 * @param int    $status HTTP status.
	 * @param mixed  $data   Response data.
	 * @param array  $meta   Headers and links: {headers: array, links: array}.
	 */
	public static function complete( int $id, string $token, int $status, $data, array $meta ): bool {
		global $wpdb;
		$written = $wpdb->query(
			$wpdb->prepare(
				'UPDATE ' . self::table() . " SET response_status = %d, response_data = %s, response_meta = %s, claim_token = '', locked_until = NULL WHERE id = %d AND claim_token = %s",
				$status,
				(string) wp_json_encode( $data ),
				(string) wp_json_encode( $meta ),
				$id,
				$token
			)
		);
		return 1 === (int) $written;
	}

	/**
	 * Gives a claimed key up (the request failed and wrote nothing): the next request with
	 * it is handled as a first one.
	 *
	 * @param int    $id    Row id.
	 * @param string $token Claim token.
	 */
	public static function release( int $id, string $token ): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'DELETE FROM ' . self::table() . ' WHERE id = %d AND claim_token = %s AND response_status IS NULL', $id, $token ) );
	}

	/**
	 * Deletes keys past their 24 hours (from the inbound sweep, every five minutes).
	 *
	 * @return int Rows deleted.
	 */
	public static function purge_expired(): int {
		global $wpdb;
		$table = self::table();
		// Ids first, then DELETE … IN: DELETE with LIMIT is not portable (SQLite).
		$ids = $wpdb->get_col( $wpdb->prepare( "SELECT id FROM {$table} WHERE expires_at <= %s ORDER BY expires_at LIMIT %d", gmdate( 'Y-m-d H:i:s' ), self::PURGE_BATCH ) );
		if ( ! $ids ) {
			return 0;
		}
		$placeholders = implode( ',', array_fill( 0, count( $ids ), '%d' ) );
		return (int) $wpdb->query( $wpdb->prepare( "DELETE FROM {$table} WHERE id IN ({$placeholders})", array_map( 'intval', $ids ) ) );
	}

	/**
	 * Unix time of a UTC datetime column (0 for none).
	 *
	 * @param string|null $datetime Datetime.
	 */
	private static function timestamp( ?string $datetime ): int {
		return $datetime ? (int) strtotime( $datetime . ' UTC' ) : 0;
	}
}
