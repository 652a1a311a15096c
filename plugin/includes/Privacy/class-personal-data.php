<?php
/**
 * WordPress's personal data exporters and erasers for what the plugin and the sidecar hold.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Privacy;

use ServiceIntegration\Support\Database_Error;
use ServiceIntegration\Inbound\Inbound_Store;
use ServiceIntegration\Outbound\Outbox;
use ServiceIntegration\Sidecar\Sidecar_Client;
use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Tools > Export / Erase Personal Data ("Service Integration"): a customer's name and email
 * in the outbox (order events waiting for or handed to the sidecar), in the inbound events
 * table, and in the sidecar's stored events and attempts (over the signed channel).
 *
 * Core only runs exporters and erasers for users with the privacy capabilities
 * (export_others_personal_data, erase_others_personal_data); nothing here is reachable
 * any other way. Erasing replaces values by markers (Personal_Data_Json): rows, event ids
 * and dedupe keys stay, so deduplication keeps working.
 */
final class Personal_Data {

	const PER_PAGE = 50;

	/**
	 * Rows read per query while erasing.
	 */
	const ERASE_BATCH = 100;

	/**
	 * Constructor.
	 *
	 * @param \wpdb          $db            The database the two tables are in.
	 * @param Sidecar_Client $sidecar       The signed channel to the sidecar.
	 * @param Outbox         $outbox        The outbox (its table).
	 * @param Inbound_Store  $inbound_store The inbound events (their table).
	 */
	public function __construct( private \wpdb $db, private Sidecar_Client $sidecar, private Outbox $outbox, private Inbound_Store $inbound_store ) {
	}

	/**
	 * Hooks the exporters and erasers into core's privacy tools.
	 */
	public function register(): void {
		add_filter( 'wp_privacy_personal_data_exporters', array( $this, 'exporters' ) );
		add_filter( 'wp_privacy_personal_data_erasers', array( $this, 'erasers' ) );
	}

	/**
	 * Adds the exporters.
	 *
	 * @param array $exporters Registered exporters.
	 */
	public function exporters( array $exporters ): array {
		$exporters['service-integration-outbox']  = array(
			'exporter_friendly_name' => __( 'Service Integration: outgoing order events', 'service-integration' ),
			'callback'               => fn( string $email, int $page = 1 ) => $this->export_table( 'outbox', $email, $page ),
		);
		$exporters['service-integration-inbound'] = array(
			'exporter_friendly_name' => __( 'Service Integration: incoming webhooks', 'service-integration' ),
			'callback'               => fn( string $email, int $page = 1 ) => $this->export_table( 'inbound', $email, $page ),
		);
		$exporters['service-integration-sidecar'] = array(
			'exporter_friendly_name' => __( 'Service Integration: sidecar delivery history', 'service-integration' ),
			'callback'               => fn( string $email, int $page = 1 ) => $this->export_sidecar( $email, $page ),
		);
		return $exporters;
	}

	/**
	 * Adds the erasers.
	 *
	 * @param array $erasers Registered erasers.
	 */
	public function erasers( array $erasers ): array {
		$erasers['service-integration-outbox']  = array(
			'eraser_friendly_name' => __( 'Service Integration: outgoing order events', 'service-integration' ),
			'callback'             => fn( string $email ) => $this->erase_table( 'outbox', $email ),
		);
		$erasers['service-integration-inbound'] = array(
			'eraser_friendly_name' => __( 'Service Integration: incoming webhooks', 'service-integration' ),
			'callback'             => fn( string $email ) => $this->erase_table( 'inbound', $email ),
		);
		$erasers['service-integration-sidecar'] = array(
			'eraser_friendly_name' => __( 'Service Integration: sidecar delivery history', 'service-integration' ),
			'callback'             => fn( string $email ) => $this->erase_sidecar( $email ),
		);
		return $erasers;
	}

	/**
	 * Table name, columns shown, and export group of a table.
	 *
	 * @param string $which 'outbox' or 'inbound'.
	 * @return array{table:string, columns:string, group:string, label:string, description:string}
	 */
	private function table( string $which ): array {
		if ( 'outbox' === $which ) {
			return array(
				'table'       => $this->outbox->table(),
				'columns'     => 'id, event_id, type, created_at AS at, payload',
				'group'       => 'service-integration-outbox',
				'label'       => __( 'Outgoing order events', 'service-integration' ),
				'description' => __( 'Order events this site sends to webhook endpoints, kept until the sidecar has them.', 'service-integration' ),
			);
		}
		return array(
			'table'       => $this->inbound_store->table(),
			'columns'     => 'id, event_id, type, received_at AS at, payload, source',
			'group'       => 'service-integration-inbound',
			'label'       => __( 'Incoming webhooks', 'service-integration' ),
			'description' => __( 'Verified webhooks received from other services.', 'service-integration' ),
		);
	}

	/**
	 * Rows whose payload contains the email (SQL LIKE), by ascending id after $after_id.
	 *
	 * @param string $which    'outbox' or 'inbound'.
	 * @param string $email    Email address.
	 * @param int    $after_id Keyset cursor.
	 * @param int    $limit    Rows.
	 * @param int    $offset   Rows skipped.
	 * @return object[]|WP_Error A failed query is an error, never an empty result.
	 */
	private function candidates( string $which, string $email, int $after_id, int $limit, int $offset = 0 ) {
		$spec                 = $this->table( $which );
		$like                 = '%' . $this->db->esc_like( trim( $email ) ) . '%';
		$this->db->last_error = '';
		// Each table's name comes from its class; LIKE is case-insensitive on MySQL's default collations and on SQLite (ASCII).
		$sql  = "SELECT {$spec['columns']} FROM {$spec['table']} WHERE id > %d AND LOWER(payload) LIKE LOWER(%s) ORDER BY id ASC LIMIT %d OFFSET %d";
		$rows = $this->db->get_results( $this->db->prepare( $sql, $after_id, $like, $limit, $offset ) );
		if ( Database_Error::of( $this->db, is_array( $rows ) ? $rows : false, 'privacy: read ' . $spec['table'] ) ) {
			// The database's message is in the PHP error log; the administrator is told what to do.
			return new WP_Error( 'service_integration_privacy_query_failed', sprintf( /* translators: %s: table name. */ __( 'Reading %s failed; nothing was exported or erased from it. Try again.', 'service-integration' ), $spec['table'] ) );
		}
		return $rows;
	}

	/**
	 * The export item's name/value pairs of one record.
	 *
	 * @param array<string, string> $pairs Label => value.
	 */
	private static function pairs( array $pairs ): array {
		$data = array();
		foreach ( $pairs as $name => $value ) {
			if ( null !== $value && '' !== $value ) {
				$data[] = array(
					'name'  => $name,
					'value' => $value,
				);
			}
		}
		return $data;
	}

	/**
	 * One page of the outbox or inbound rows holding the email.
	 *
	 * @param string $which 'outbox' or 'inbound'.
	 * @param string $email Email address.
	 * @param int    $page  Page, from 1.
	 * @return array|WP_Error Core fails the export on an error.
	 */
	public function export_table( string $which, string $email, int $page ) {
		$spec = $this->table( $which );
		$page = max( 1, $page );
		$rows = $this->candidates( $which, $email, 0, self::PER_PAGE + 1, ( $page - 1 ) * self::PER_PAGE );
		if ( is_wp_error( $rows ) ) {
			return $rows;
		}
		$done = count( $rows ) <= self::PER_PAGE;
		$data = array();
		foreach ( array_slice( $rows, 0, self::PER_PAGE ) as $row ) {
			$fields = Personal_Data_Json::payload_fields( (string) $row->payload, $email );
			if ( array() === $fields ) {
				continue; // The LIKE matched a longer address or a key, not the customer's email.
			}
			$data[] = array(
				'group_id'          => $spec['group'],
				'group_label'       => $spec['label'],
				'group_description' => $spec['description'],
				'item_id'           => $spec['group'] . '-' . $row->id,
				'data'              => self::pairs(
					array(
						__( 'Event id', 'service-integration' ) => (string) $row->event_id,
						__( 'Event type', 'service-integration' ) => (string) $row->type,
						__( 'Source', 'service-integration' )   => isset( $row->source ) ? (string) $row->source : null,
						__( 'Stored at (UTC)', 'service-integration' ) => (string) $row->at,
						__( 'Name', 'service-integration' )     => $fields['name'] ?? null,
						__( 'Email', 'service-integration' )    => $fields['email'] ?? null,
						__( 'Phone', 'service-integration' )    => $fields['phone'] ?? null,
					)
				),
			);
		}
		return array(
			'data' => $data,
			'done' => $done,
		);
	}

	/**
	 * One page of the sidecar's events and attempts holding the email.
	 *
	 * @param string $email Email address.
	 * @param int    $page  Page, from 1.
	 * @return array|WP_Error WP_Error when the sidecar cannot be asked: core shows it and the export stops.
	 */
	public function export_sidecar( string $email, int $page ) {
		if ( ! $this->sidecar->is_configured() ) {
			return array(
				'data' => array(),
				'done' => true,
			);
		}
		$answer = $this->sidecar->request_json(
			'POST',
			'/v1/privacy/export',
			array(
				'email'    => trim( $email ),
				'page'     => max( 1, $page ),
				'per_page' => self::PER_PAGE,
			),
			15.0
		);
		if ( is_wp_error( $answer ) || 200 !== $answer['status'] || ! is_array( $answer['body'] ) ) {
			return new WP_Error( 'sidecar_privacy_export_failed', self::sidecar_failure( $answer, __( 'The sidecar\'s delivery history could not be exported', 'service-integration' ) ) );
		}
		$data = array();
		foreach ( (array) ( $answer['body']['records'] ?? array() ) as $record ) {
			$fields = (array) ( $record['fields'] ?? array() );
			$event  = 'event' === ( $record['kind'] ?? '' );
			$data[] = array(
				'group_id'          => 'service-integration-sidecar',
				'group_label'       => __( 'Webhook delivery history', 'service-integration' ),
				'group_description' => __( 'Order events the sidecar delivered to webhook endpoints, and what the endpoints answered.', 'service-integration' ),
				'item_id'           => 'service-integration-sidecar-' . ( $event ? 'event-' : 'attempt-' ) . (string) ( $record['id'] ?? '' ),
				'data'              => self::pairs(
					array(
						__( 'Record', 'service-integration' )     => $event ? __( 'Event', 'service-integration' ) : __( 'Delivery attempt', 'service-integration' ),
						__( 'Event id', 'service-integration' )   => (string) ( $event ? ( $record['id'] ?? '' ) : ( $record['event_id'] ?? '' ) ),
						__( 'Event type', 'service-integration' ) => (string) ( $record['type'] ?? '' ),
						__( 'Stored at (UTC)', 'service-integration' ) => (string) ( $record['received_at'] ?? '' ),
						__( 'Name', 'service-integration' )       => isset( $fields['name'] ) ? (string) $fields['name'] : null,
						__( 'Email', 'service-integration' )      => isset( $fields['email'] ) ? (string) $fields['email'] : null,
						__( 'Phone', 'service-integration' )      => isset( $fields['phone'] ) ? (string) $fields['phone'] : null,
						__( 'Endpoint\'s answer', 'service-integration' ) => isset( $fields['response_excerpt'] ) ? (string) $fields['response_excerpt'] : null,
					)
				),
			);
		}
		return array(
			'data' => $data,
			'done' => (bool) ( $answer['body']['done'] ?? true ),
		);
	}

	/**
	 * Replaces the customer's data in the outbox or inbound rows holding the email, all in one call.
	 *
	 * @param string $which 'outbox' or 'inbound'.
	 * @param string $email Email address.
	 */
	public function erase_table( string $which, string $email ): array {
		$spec     = $this->table( $which );
		$removed  = false;
		$after    = 0;
		$messages = array();
		do {
			$rows = $this->candidates( $which, $email, $after, self::ERASE_BATCH );
			if ( is_wp_error( $rows ) ) {
				$messages[] = $rows->get_error_message();
				break;
			}
			$read = count( $rows );
			foreach ( $rows as $row ) {
				$after    = (int) $row->id;
				$redacted = Personal_Data_Json::redact_payload( (string) $row->payload, $email );
				if ( null === $redacted ) {
					continue;
				}
				$this->db->last_error = '';
				$written              = $this->db->update( $spec['table'], array( 'payload' => $redacted ), array( 'id' => (int) $row->id ), array( '%s' ), array( '%d' ) );
				if ( Database_Error::of( $this->db, $written, 'privacy: rewrite a row of ' . $spec['table'] ) ) {
					/* translators: 1: row id, 2: table name. */
					$messages[] = sprintf( __( 'Row %1$d of %2$s could not be rewritten; run the erasure again.', 'service-integration' ), (int) $row->id, $spec['table'] );
					continue;
				}
				$removed = true;
			}
		} while ( self::ERASE_BATCH === $read );
		// What could not be read or written is reported as retained, never as done and clean.
		return array(
			'items_removed'  => $removed,
			'items_retained' => array() !== $messages,
			'messages'       => $messages,
			'done'           => true,
		);
	}

	/**
	 * Asks the sidecar to replace the customer's data in its events and attempts. When the
	 * sidecar cannot be reached, the data is reported as retained with a message to retry.
	 *
	 * @param string $email Email address.
	 */
	public function erase_sidecar( string $email ): array {
		if ( ! $this->sidecar->is_configured() ) {
			return array(
				'items_removed'  => false,
				'items_retained' => false,
				'messages'       => array(),
				'done'           => true,
			);
		}
		$answer = $this->sidecar->request_json( 'POST', '/v1/privacy/erase', array( 'email' => trim( $email ) ), 30.0 );
		if ( is_wp_error( $answer ) || 200 !== $answer['status'] || ! is_array( $answer['body'] ) ) {
			return array(
				'items_removed'  => false,
				'items_retained' => true,
				'messages'       => array( self::sidecar_failure( $answer, __( 'The sidecar\'s delivery history was not erased', 'service-integration' ) ) . ' ' . __( 'Run the erasure again once the sidecar is reachable.', 'service-integration' ) ),
				'done'           => true,
			);
		}
		$events   = (int) ( $answer['body']['redacted_events'] ?? 0 );
		$attempts = (int) ( $answer['body']['redacted_attempts'] ?? 0 );
		return array(
			'items_removed'  => $events + $attempts > 0,
			'items_retained' => false,
			'messages'       => array(),
			'done'           => true,
		);
	}

	/**
	 * A message naming why the sidecar call failed (its error code and message, never a secret or a payload).
	 *
	 * @param array|WP_Error $answer  The client's result.
	 * @param string         $summary What did not happen.
	 */
	private static function sidecar_failure( $answer, string $summary ): string {
		if ( is_wp_error( $answer ) ) {
			/* translators: 1: what failed, 2: why. */
			return sprintf( __( '%1$s: %2$s', 'service-integration' ), $summary, $answer->get_error_message() );
		}
		$code = is_array( $answer['body'] ) && isset( $answer['body']['code'] ) ? (string) $answer['body']['code'] : 'unexpected_answer';
		/* translators: 1: what failed, 2: HTTP status, 3: error code */
		return sprintf( __( '%1$s: the sidecar answered %2$d (%3$s).', 'service-integration' ), $summary, (int) $answer['status'], $code );
	}
}
