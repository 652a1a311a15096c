<?php
/**
 * The idempotency keys table: one row per (user, scope, key), holding the first answer.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Manufacturing;

use ServiceIntegration\Support\Clock;
use ServiceIntegration\Support\Database_Error;
use ServiceIntegration\Support\Mysql_Time;
use ServiceIntegration\Support\Options;
use WP_Error;

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
 *
 * One instance, built in Plugin with WordPress's connection, the system clock and WordPress's
 * options (the schema version); what a row means for a request is Idempotency_Key_State's
 * decision. A failed query comes back as a WP_Error (Database_Error), never as "no row": a
 * request whose key could not be checked does no work.
 */
final class Idempotency_Store {

	const DB_VERSION_OPTION = 'service_integration_idempotency_db';
	const DB_VERSION        = '1';
	/** The table's name after the site's prefix. */
	const TABLE = 'si_idempotency_keys';

	/**
	 * Rows the purge deletes at most per run.
	 */
	const PURGE_BATCH = 1000;

	/**
	 * Constructor.
	 *
	 * @param \wpdb   $db      The database.
	 * @param Clock   $clock   Time of the claims, their leases and expiry.
	 * @param Options $options The schema version.
	 */
	public function __construct( private \wpdb $db, private Clock $clock, private Options $options ) {
	}

	/**
	 * Table name.
	 */
	public function table(): string {
		return $this->db->prefix . self::TABLE;
	}

	/**
	 * Creates or upgrades the table (dbDelta: idempotent).
	 */
	public function install(): void {
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		$charset = $this->db->get_charset_collate();
		$table   = $this->table();
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
		$this->options->update( self::DB_VERSION_OPTION, self::DB_VERSION, true );
	}

	/**
	 * Claims a key for one request, or says why not.
	 *
	 * @param int    $user_id     User the key belongs to.
	 * @param string $scope       What the key is for (one route).
	 * @param string $key         The key, as Idempotency_Key::parse() gave it.
	 * @param string $fingerprint The request's Idempotency_Key::fingerprint().
	 * @return array{state:string, id?:int, token?:string, status?:int, data?:array, meta?:array, retry_after?:int}|WP_Error
	 *         state `claimed` (id, token: do the work, then complete() or release()),
	 *         `replay` (status, data, meta: the first answer), `mismatch` (the key was used
	 *         with another request) or `in_progress` (retry_after seconds); a WP_Error when
	 *         the database did not answer (then nothing may be done for the request).
	 */
	public function claim( int $user_id, string $scope, string $key, string $fingerprint ) {
		$table    = $this->table();
		$key_hash = hash( 'sha256', $key );
		// Twice at most: a row that expired, or was released meanwhile, is gone for the second insert.
		for ( $attempt = 0; $attempt < 2; $attempt++ ) {
			$now      = $this->clock->now();
			$token    = wp_generate_password( 32, false );
			$inserted = $this->db->query(
				$this->db->prepare(
					"INSERT IGNORE INTO {$table} (user_id, scope, key_hash, fingerprint, claim_token, locked_until, created_at, expires_at) VALUES (%d, %s, %s, %s, %s, %s, %s, %s)",
					$user_id,
					$scope,
					$key_hash,
					$fingerprint,
					$token,
					Mysql_Time::of( Idempotency_Key_State::locked_until( $now ) ),
					Mysql_Time::of( $now ),
					Mysql_Time::of( Idempotency_Key_State::expires_at( $now ) )
				)
			);
			$fault    = Database_Error::of( $this->db, $inserted, 'idempotency keys: claim a key' );
			if ( $fault ) {
				return $fault;
			}
			if ( 1 === (int) $inserted ) {
				return array(
					'state' => 'claimed',
					'id'    => (int) $this->db->insert_id,
					'token' => $token,
				);
			}
			$row   = $this->db->get_row( $this->db->prepare( "SELECT * FROM {$table} WHERE user_id = %d AND scope = %s AND key_hash = %s", $user_id, $scope, $key_hash ) );
			$fault = Database_Error::of( $this->db, $row, 'idempotency keys: read a claimed key' );
			if ( $fault ) {
				return $fault;
			}
			if ( ! $row ) {
				continue;
			}
			$found = Idempotency_Key_State::of( $row, $fingerprint, $now );
			if ( Idempotency_Key_State::EXPIRED === $found['state'] ) {
				// Past its 24 hours the key is new again (the purge may not have run yet).
				$deleted = $this->db->query( $this->db->prepare( "DELETE FROM {$table} WHERE id = %d AND expires_at = %s", $row->id, $row->expires_at ) );
				$fault   = Database_Error::of( $this->db, $deleted, 'idempotency keys: delete an expired key' );
				if ( $fault ) {
					return $fault;
				}
				continue;
			}
			return $this->existing( $row, $found, $now );
		}
		return array(
			'state'       => 'in_progress',
			'retry_after' => 1,
		);
	}

	/**
	 * The answer of a claim that met a live row.
	 *
	 * @param object $row   The row.
	 * @param array  $found What the row is for the request (Idempotency_Key_State::of()).
	 * @param int    $now   Unix time.
	 * @return array|WP_Error See claim().
	 */
	private function existing( object $row, array $found, int $now ) {
		switch ( $found['state'] ) {
			case Idempotency_Key_State::MISMATCH:
				return array( 'state' => 'mismatch' );
			case Idempotency_Key_State::REPLAY:
				return array( 'state' => 'replay' ) + Idempotency_Key_State::answer( $row );
			case Idempotency_Key_State::IN_PROGRESS:
				return $found;
		}
		// Abandoned by a request that died: take it over, unless another request just did.
		$token = wp_generate_password( 32, false );
		$taken = $this->db->query(
			$this->db->prepare(
				'UPDATE ' . $this->table() . ' SET claim_token = %s, locked_until = %s WHERE id = %d AND claim_token = %s AND response_status IS NULL',
				$token,
				Mysql_Time::of( Idempotency_Key_State::locked_until( $now ) ),
				$row->id,
				$row->claim_token
			)
		);
		$fault = Database_Error::of( $this->db, $taken, 'idempotency keys: take over an abandoned key' );
		if ( $fault ) {
			return $fault;
		}
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
	 * @return bool|WP_Error Whether the answer was recorded (false: the claim is no longer this
	 *                       request's, another took the key over after its lease).
	 */
	public function complete( int $id, string $token, int $status, $data, array $meta ) {
		$written = $this->db->query(
			$this->db->prepare(
				'UPDATE ' . $this->table() . " SET response_status = %d, response_data = %s, response_meta = %s, claim_token = '', locked_until = NULL WHERE id = %d AND claim_token = %s",
				$status,
				(string) wp_json_encode( $data ),
				(string) wp_json_encode( $meta ),
				$id,
				$token
			)
		);
		return Database_Error::of( $this->db, $written, 'idempotency keys: record an answer' ) ?? 1 === (int) $written;
	}

	/**
	 * Gives a claimed key up (the request failed and wrote nothing): the next request with
	 * it is handled as a first one.
	 *
	 * @param int    $id    Row id.
	 * @param string $token Claim token.
	 * @return true|WP_Error
	 */
	public function release( int $id, string $token ) {
		$deleted = $this->db->query( $this->db->prepare( 'DELETE FROM ' . $this->table() . ' WHERE id = %d AND claim_token = %s AND response_status IS NULL', $id, $token ) );
		return Database_Error::of( $this->db, $deleted, 'idempotency keys: release a key' ) ?? true;
	}

	/**
	 * Deletes keys past their 24 hours (from the inbound sweep, every five minutes).
	 *
	 * @return int|WP_Error Rows deleted.
	 */
	public function purge_expired() {
		$table = $this->table();
		// Ids first, then DELETE … IN: DELETE with LIMIT is not portable (SQLite).
		$ids   = $this->db->get_col( $this->db->prepare( "SELECT id FROM {$table} WHERE expires_at <= %s ORDER BY expires_at LIMIT %d", Mysql_Time::of( $this->clock->now() ), self::PURGE_BATCH ) );
		$fault = Database_Error::of( $this->db, $ids, 'idempotency keys: find expired keys' );
		if ( $fault ) {
			return $fault;
		}
		if ( ! $ids ) {
			return 0;
		}
		$placeholders = implode( ',', array_fill( 0, count( $ids ), '%d' ) );
		$deleted      = $this->db->query( $this->db->prepare( "DELETE FROM {$table} WHERE id IN ({$placeholders})", array_map( 'intval', $ids ) ) );
		return Database_Error::of( $this->db, $deleted, 'idempotency keys: purge expired keys' ) ?? (int) $deleted;
	}
}
