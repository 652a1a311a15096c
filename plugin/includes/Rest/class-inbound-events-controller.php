<?php
/**
 * REST: administrators read the inbound events stored in WordPress, and retry a failed one.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use ServiceIntegration\Contracts;
use ServiceIntegration\Sidecar_Contract;
use ServiceIntegration\Inbound\Inbound_Processor;
use ServiceIntegration\Inbound\Inbound_Store;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Events live in WordPress (si_inbound_events), stored once the sidecar verified them; the
 * list leaves payloads out, one event at a time includes its payload.
 */
final class Inbound_Events_Controller extends Controller {

	/**
	 * The routes' base.
	 *
	 * @var string
	 */
	protected $rest_base = 'inbound/events';

	/**
	 * Administrators only.
	 *
	 * @var string[]
	 */
	protected array $capabilities = array( 'manage_options' );

	/**
	 * Constructor.
	 *
	 * @param Inbound_Store $store The stored events.
	 */
	public function __construct( private Inbound_Store $store ) {}

	/**
	 * Registers the routes.
	 */
	public function register_routes(): void {
		$id = array(
			'id' => array(
				'description' => __( 'The event\'s id in WordPress.', 'service-integration' ),
				'type'        => 'integer',
			),
		);
		$this->register_route( '', array( $this->endpoint( WP_REST_Server::READABLE, 'get_items', $this->get_collection_params() ) ), array( $this, 'get_collection_schema' ) );
		$this->register_route( '/(?P<id>[0-9]+)', array( $this->endpoint( WP_REST_Server::READABLE, 'get_item', array_merge( $id, $this->context_args() ) ) ) );
		$this->register_route( '/(?P<id>[0-9]+)/retry', array( $this->endpoint( WP_REST_Server::CREATABLE, 'retry_item', $id ) ) );
	}

	/**
	 * The list's filters and paging.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public function get_collection_params(): array {
		return array(
			'context'   => $this->get_context_param( array( 'default' => 'view' ) ),
			'source'    => array(
				'description' => __( 'Only this source\'s events.', 'service-integration' ),
				'type'        => 'string',
				'pattern'     => Contracts::anchored( Sidecar_Contract::SOURCE_ID_PATTERN ),
			),
			'status'    => array(
				'description' => __( 'Only events in this status.', 'service-integration' ),
				'type'        => 'string',
				'enum'        => Inbound_Store::STATUSES,
			),
			'event_id'  => array(
				'description' => __( 'Only the event with this provider id.', 'service-integration' ),
				'type'        => 'string',
				'minLength'   => 1,
				'maxLength'   => 300,
			),
			'duplicate' => array(
				'description' => __( 'Only events that were delivered more than once.', 'service-integration' ),
				'type'        => 'boolean',
				'default'     => false,
			),
			'page'      => array(
				'description' => __( 'Page, from 1.', 'service-integration' ),
				'type'        => 'integer',
				'minimum'     => 1,
				'default'     => 1,
			),
			'per_page'  => array(
				'description' => __( 'Events per page.', 'service-integration' ),
				'type'        => 'integer',
				'minimum'     => 1,
				'maximum'     => 100,
				'default'     => 20,
			),
		);
	}

	/**
	 * One event (the list's items have no payload).
	 *
	 * @return array<string, mixed>
	 */
	protected function item_schema(): array {
		return Schemas\Inbound_Events::event();
	}

	/**
	 * A page of events, with the counts by status and the duplicates acknowledged.
	 *
	 * @return array<string, mixed>
	 */
	public function get_collection_schema(): array {
		return Schemas\Inbound_Events::page();
	}

	/**
	 * A page of stored events, newest first, without payloads.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function get_items( $request ) {
		$page       = (int) $request['page'];
		$per_page   = (int) $request['per_page'];
		$result     = $this->store->page(
			array(
				'source'    => (string) $request['source'],
				'status'    => (string) $request['status'],
				'event_id'  => (string) $request['event_id'],
				'duplicate' => (bool) $request['duplicate'],
			),
			$page,
			$per_page
		);
		$counts     = $this->store->counts();
		$duplicates = $this->store->duplicate_totals();
		foreach ( array( $result, $counts, $duplicates ) as $answer ) {
			if ( is_wp_error( $answer ) ) {
				return $answer;
			}
		}
		$events = array();
		foreach ( $result['items'] as $row ) {
			$events[] = $this->view_data( self::event_view( $row ), $request );
		}
		$page_data = array(
			'events'     => $events,
			'total'      => $result['total'],
			'page'       => $page,
			'per_page'   => $per_page,
			'counts'     => $counts,
			// Redeliveries acknowledged as duplicates (never stored or processed again).
			'duplicates' => $duplicates,
		);
		$response  = $this->view_response( $page_data, $request, 200, $this->get_collection_schema() );
		$response->header( 'X-WP-Total', (string) $result['total'] );
		$response->header( 'X-WP-TotalPages', (string) (int) ceil( $result['total'] / $per_page ) );
		return $response;
	}

	/**
	 * One event with its payload (the exact body the provider signed).
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function get_item( $request ) {
		$row = $this->store->get( (int) $request['id'] );
		if ( is_wp_error( $row ) ) {
			return $row;
		}
		if ( ! $row ) {
			return new WP_Error( 'inbound_event_not_found', __( 'No inbound event with this id.', 'service-integration' ), array( 'status' => 404 ) );
		}
		return $this->view_response( array_merge( self::event_view( $row ), array( 'payload' => $row->payload ) ), $request );
	}

	/**
	 * Starts a fresh round of attempts for an event that failed.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function retry_item( $request ) {
		$id    = (int) $request['id'];
		$found = $this->store->get( $id );
		if ( is_wp_error( $found ) ) {
			return $found;
		}
		if ( ! $found ) {
			return new WP_Error( 'inbound_event_not_found', __( 'No inbound event with this id.', 'service-integration' ), array( 'status' => 404 ) );
		}
		$requeued = $this->store->requeue( $id );
		if ( is_wp_error( $requeued ) ) {
			return $requeued;
		}
		if ( ! $requeued ) {
			return new WP_Error( 'inbound_event_not_failed', __( 'Only a failed event can be retried.', 'service-integration' ), array( 'status' => 409 ) );
		}
		Inbound_Processor::kick();
		$row = $this->store->get( $id );
		return is_wp_error( $row ) ? $row : $this->view_response( self::event_view( $row ? $row : $found ), $request );
	}

	/**
	 * API shape of an event row (ISO 8601 UTC times).
	 *
	 * @param object $row Row.
	 * @return array<string, mixed>
	 */
	private static function event_view( object $row ): array {
		return array(
			'id'                => (int) $row->id,
			'source'            => $row->source,
			'event_id'          => $row->event_id,
			'delivery_id'       => $row->delivery_id ?? null,
			'type'              => $row->type,
			'status'            => $row->status,
			'attempts'          => (int) $row->attempts,
			'last_error'        => $row->last_error,
			'received_at'       => self::iso( $row->received_at ),
			'processed_at'      => self::iso( $row->processed_at ),
			'next_attempt_at'   => Inbound_Store::STATUS_PROCESSED === $row->status ? null : self::iso( $row->next_attempt_at ),
			'gave_up'           => Inbound_Store::STATUS_FAILED === $row->status && null === $row->next_attempt_at,
			'duplicate_count'   => (int) $row->duplicate_count,
			'last_duplicate_at' => self::iso( $row->last_duplicate_at ),
		);
	}

	/**
	 * MySQL UTC datetime to ISO 8601.
	 *
	 * @param string|null $datetime Value.
	 */
	private static function iso( ?string $datetime ): ?string {
		return $datetime ? gmdate( 'Y-m-d\TH:i:s\Z', (int) strtotime( $datetime . ' UTC' ) ) : null;
	}
}
