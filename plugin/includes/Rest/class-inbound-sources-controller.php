<?php
/**
 * REST: administrators manage inbound sources (through the sidecar) and read inbound events.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use ServiceIntegration\Inbound\Inbound_Processor;
use ServiceIntegration\Inbound\Inbound_Route;
use ServiceIntegration\Inbound\Inbound_Store;
use ServiceIntegration\Sidecar\Sidecar_Client;
use WP_Error;
use WP_REST_Controller;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

use const ServiceIntegration\REST_NAMESPACE;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Sources and their secrets live in the sidecar (a database dump of WordPress holds no
 * webhook secret); these routes forward an administrator's calls over the signed
 * channel and pass the sidecar's answer or error through, adding each source's
 * receiving URL. Events live in WordPress (si_inbound_events) and are read here;
 * payloads only one event at a time.
 */
final class Inbound_Sources_Controller extends WP_REST_Controller {

	const SOURCE_ID = '(?P<id>[a-z0-9-]{1,64})';

	/**
	 * Constructor.
	 *
	 * @param Sidecar_Client $sidecar Client.
	 */
	public function __construct( private Sidecar_Client $sidecar ) {
		$this->namespace = REST_NAMESPACE;
		$this->rest_base = 'inbound';
	}

	/**
	 * Registers the routes.
	 */
	public function register_routes(): void {
		$admin = array( $this, 'permissions_check' );
		$proxy = array(
			'/sources'                                    => 'GET, POST',
			'/sources/' . self::SOURCE_ID                 => 'GET, POST, PATCH, DELETE',
			'/sources/' . self::SOURCE_ID . '/rotate-secret' => 'POST',
		);
		foreach ( $proxy as $route => $methods ) {
			register_rest_route(
				$this->namespace,
				'/' . $this->rest_base . $route,
				array(
					'methods'             => $methods,
					'callback'            => array( $this, 'forward' ),
					'permission_callback' => $admin,
				)
			);
		}
		register_rest_route(
			$this->namespace,
			'/' . $this->rest_base . '/log',
			array(
				'methods'             => WP_REST_Server::READABLE,
				'callback'            => array( $this, 'get_log' ),
				'permission_callback' => $admin,
				'args'                => array(
					'source'   => array(
						'type'    => 'string',
						'pattern' => '^[a-z0-9-]{1,64}$',
					),
					'outcome'  => array(
						'type' => 'string',
						'enum' => array( 'verified', 'refused' ),
					),
					'page'     => array(
						'type'    => 'integer',
						'minimum' => 1,
						'default' => 1,
					),
					'per_page' => array(
						'type'    => 'integer',
						'minimum' => 1,
						'maximum' => 100,
						'default' => 20,
					),
				),
			)
		);
		register_rest_route(
			$this->namespace,
			'/' . $this->rest_base . '/events',
			array(
				'methods'             => WP_REST_Server::READABLE,
				'callback'            => array( $this, 'get_events' ),
				'permission_callback' => $admin,
				'args'                => array(
					'source'    => array(
						'type'    => 'string',
						'pattern' => '^[a-z0-9-]{1,64}$',
					),
					'status'    => array(
						'type' => 'string',
						'enum' => Inbound_Store::STATUSES,
					),
					'event_id'  => array(
						'type'      => 'string',
						'minLength' => 1,
						'maxLength' => 300,
					),
					// Only events that were delivered more than once.
					'duplicate' => array(
						'type'    => 'boolean',
						'default' => false,
					),
					'page'      => array(
						'type'    => 'integer',
						'minimum' => 1,
						'default' => 1,
					),
					'per_page'  => array(
						'type'    => 'integer',
						'minimum' => 1,
						'maximum' => 100,
						'default' => 20,
					),
				),
			)
		);
		register_rest_route(
			$this->namespace,
			'/' . $this->rest_base . '/events/(?P<id>[0-9]+)',
			array(
				'methods'             => WP_REST_Server::READABLE,
				'callback'            => array( $this, 'get_event' ),
				'permission_callback' => $admin,
			)
		);
		register_rest_route(
			$this->namespace,
			'/' . $this->rest_base . '/events/(?P<id>[0-9]+)/retry',
			array(
				'methods'             => WP_REST_Server::CREATABLE,
				'callback'            => array( $this, 'retry_event' ),
				'permission_callback' => $admin,
			)
		);
	}

	/**
	 * Administrators only.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return true|WP_Error
	 */
	public function permissions_check( $request ) {
		return Permissions::require_capability( 'manage_options' );
	}

	/**
	 * Forwards a sources call to the sidecar (POST on one source = PATCH).
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function forward( $request ) {
		$prefix = '/' . $this->namespace . '/' . $this->rest_base;
		$path   = '/v1/inbound' . substr( $request->get_route(), strlen( $prefix ) );
		$method = $request->get_method();
		$url_id = $request->get_url_params()['id'] ?? null;
		if ( 'POST' === $method && null !== $url_id && ! str_ends_with( $path, '/rotate-secret' ) ) {
			$method = 'PATCH';
		}
		$body = in_array( $method, array( 'POST', 'PATCH' ), true ) ? (string) wp_json_encode( (object) ( $request->get_json_params() ?? array() ) ) : '';

		$answer = $this->sidecar->request( $method, $path, $body );
		if ( is_wp_error( $answer ) ) {
			return $answer;
		}
		$payload = $answer['body'];
		if ( $answer['status'] < 400 && is_array( $payload ) ) {
			if ( isset( $payload['sources'] ) && is_array( $payload['sources'] ) ) {
				$payload['sources'] = array_map( array( self::class, 'with_receiving_url' ), $payload['sources'] );
			} elseif ( isset( $payload['id'] ) ) {
				$payload = self::with_receiving_url( $payload );
			}
		}
		$response = new WP_REST_Response( $payload, $answer['status'] );
		if ( is_array( $payload ) && isset( $payload['secret'] ) ) {
			$response->header( 'Cache-Control', 'no-store' );
		}
		return $response;
	}

	/**
	 * The sidecar's verification log (no payloads, no secrets).
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function get_log( $request ) {
		$query = array_filter(
			array(
				'source'   => $request['source'],
				'outcome'  => $request['outcome'],
				'page'     => (int) $request['page'],
				'per_page' => (int) $request['per_page'],
			),
			static fn( $value ) => null !== $value && '' !== $value
		);
		$answer = $this->sidecar->request( 'GET', '/v1/inbound/log?' . http_build_query( $query ), '' );
		if ( is_wp_error( $answer ) ) {
			return $answer;
		}
		return new WP_REST_Response( $answer['body'], $answer['status'] );
	}

	/**
	 * A page of stored events, newest first, without payloads.
	 *
	 * @param WP_REST_Request $request Request.
	 */
	public function get_events( $request ): WP_REST_Response {
		$page     = (int) $request['page'];
		$per_page = (int) $request['per_page'];
		$result   = Inbound_Store::page(
			array(
				'source'    => (string) $request['source'],
				'status'    => (string) $request['status'],
				'event_id'  => (string) $request['event_id'],
				'duplicate' => (bool) $request['duplicate'],
			),
			$page,
			$per_page
		);
		$response = new WP_REST_Response(
			array(
				'events'     => array_map( array( self::class, 'event_view' ), $result['items'] ),
				'total'      => $result['total'],
				'page'       => $page,
				'per_page'   => $per_page,
				'counts'     => Inbound_Store::counts(),
				// Redeliveries acknowledged as duplicates (never stored or processed again).
				'duplicates' => Inbound_Store::duplicate_totals(),
			)
		);
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
	public function get_event( $request ) {
		$row = Inbound_Store::get( (int) $request['id'] );
		if ( ! $row ) {
			return new WP_Error( 'inbound_event_not_found', __( 'No inbound event with this id.', 'service-integration' ), array( 'status' => 404 ) );
		}
		return new WP_REST_Response( array_merge( self::event_view( $row ), array( 'payload' => $row->payload ) ) );
	}

	/**
	 * Starts a fresh round of attempts for an event that failed.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function retry_event( $request ) {
		$id = (int) $request['id'];
		if ( ! Inbound_Store::get( $id ) ) {
			return new WP_Error( 'inbound_event_not_found', __( 'No inbound event with this id.', 'service-integration' ), array( 'status' => 404 ) );
		}
		if ( ! Inbound_Store::requeue( $id ) ) {
			return new WP_Error( 'inbound_event_not_failed', __( 'Only a failed event can be retried.', 'service-integration' ), array( 'status' => 409 ) );
		}
		Inbound_Processor::kick();
		return new WP_REST_Response( self::event_view( Inbound_Store::get( $id ) ) );
	}

	/**
	 * Adds the URL the provider must send to.
	 *
	 * @param mixed $source Source from the sidecar.
	 * @return mixed
	 */
	private static function with_receiving_url( $source ) {
		if ( is_array( $source ) && isset( $source['id'] ) && is_string( $source['id'] ) ) {
			$source['receiving_url'] = Inbound_Route::receiving_url( $source['id'] );
		}
		return $source;
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
