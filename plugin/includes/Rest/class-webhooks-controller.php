<?php
/**
 * REST: administrators manage outbound endpoints and deliveries, through the sidecar.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use ServiceIntegration\Outbound\Endpoint_Notices;
use ServiceIntegration\Outbound\Hand_Over;
use ServiceIntegration\Outbound\Outbox;
use ServiceIntegration\Sidecar\Sidecar_Client;
use WP_REST_Controller;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

use const ServiceIntegration\REST_NAMESPACE;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The sidecar owns endpoints, secrets and the delivery log (secrets stay out of the
 * WordPress database); these routes forward an administrator's calls over the signed
 * channel and pass the sidecar's answer, or its error, through unchanged.
 */
final class Webhooks_Controller extends WP_REST_Controller {

	const ID = '(?P<id>[A-Za-z0-9_:-]{1,100})';

	/** The event types the sidecar knows (sidecar/src/outbound/event-types.ts). */
	const EVENT_TYPES = array( 'order.created', 'order.paid', 'order.refunded' );

	/** The most events one range replay takes (the sidecar's limit). */
	const REPLAY_MAX_LIMIT = 10000;

	/**
	 * Constructor.
	 *
	 * @param Sidecar_Client $sidecar Client.
	 */
	public function __construct( private Sidecar_Client $sidecar ) {
		$this->namespace = REST_NAMESPACE;
		$this->rest_base = 'webhooks';
	}

	/**
	 * Registers the routes: route => methods, each forwarded to the same sidecar path under /v1.
	 */
	public function register_routes(): void {
		$routes = array(
			'/endpoints'                         => 'GET, POST',
			'/endpoints/' . self::ID             => 'GET, PATCH, DELETE',
			'/endpoints/' . self::ID . '/rotate-secret' => 'POST',
			'/endpoints/' . self::ID . '/enable' => 'POST',
			'/endpoints/' . self::ID . '/disable' => 'POST',
			'/deliveries'                        => 'GET',
			'/events/' . self::ID                => 'GET',
			'/events/' . self::ID . '/replay'    => 'POST',
			'/replay'                            => 'POST',
		);
		foreach ( $routes as $route => $methods ) {
			register_rest_route(
				$this->namespace,
				'/' . $this->rest_base . $route,
				array(
					'methods'             => $methods,
					'callback'            => array( $this, 'forward' ),
					'permission_callback' => array( $this, 'permissions_check' ),
				)
			);
		}
		// A time range of events replayed to one endpoint: documented arguments (OPTIONS),
		// checked here first, then again by the sidecar, whose answer passes through.
		register_rest_route(
			$this->namespace,
			'/' . $this->rest_base . '/endpoints/' . self::ID . '/replay',
			array(
				array(
					'methods'             => WP_REST_Server::CREATABLE,
					'callback'            => array( $this, 'forward' ),
					'permission_callback' => array( $this, 'permissions_check' ),
					'args'                => self::replay_args(),
				),
				array(
					'methods'             => 'GET, PUT, PATCH, DELETE',
					'callback'            => array( $this, 'method_not_allowed' ),
					'permission_callback' => array( $this, 'permissions_check' ),
				),
				'schema' => array( $this, 'replay_schema' ),
			)
		);
		register_rest_route(
			$this->namespace,
			'/' . $this->rest_base . '/outbox',
			array(
				array(
					'methods'             => WP_REST_Server::READABLE,
					'callback'            => array( $this, 'outbox' ),
					'permission_callback' => array( $this, 'permissions_check' ),
				),
				array(
					'methods'             => WP_REST_Server::CREATABLE,
					'callback'            => array( $this, 'flush_outbox' ),
					'permission_callback' => array( $this, 'permissions_check' ),
				),
			)
		);
	}

	/**
	 * The range replay's arguments.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public static function replay_args(): array {
		return array(
			'from'    => array(
				'description' => __( 'Start of the range (inclusive), ISO 8601 with a time zone; compared with when the sidecar received each event.', 'service-integration' ),
				'type'        => 'string',
				'format'      => 'date-time',
				'required'    => true,
			),
			'to'      => array(
				'description' => __( 'End of the range (exclusive), ISO 8601 with a time zone; later than from.', 'service-integration' ),
				'type'        => 'string',
				'format'      => 'date-time',
				'required'    => true,
			),
			'types'   => array(
				'description' => __( 'Event types to replay; default: the ones the endpoint subscribes to (all when it lists none).', 'service-integration' ),
				'type'        => 'array',
				'items'       => array(
					'type' => 'string',
					'enum' => self::EVENT_TYPES,
				),
				'minItems'    => 1,
				'uniqueItems' => true,
			),
			'limit'   => array(
				'description' => __( 'At most this many events (default 1000); more says whether others remain.', 'service-integration' ),
				'type'        => 'integer',
				'minimum'     => 1,
				'maximum'     => self::REPLAY_MAX_LIMIT,
			),
			'dry_run' => array(
				'description' => __( 'Only count what would be replayed.', 'service-integration' ),
				'type'        => 'boolean',
			),
		);
	}

	/**
	 * The range replay's answer.
	 *
	 * @return array<string, mixed>
	 */
	public function replay_schema(): array {
		$count = array( 'type' => 'integer' );
		return array(
			'$schema'    => 'http://json-schema.org/draft-04/schema#',
			'title'      => 'webhook-endpoint-replay',
			'type'       => 'object',
			'properties' => array(
				'matched'        => $count + array( 'description' => __( 'Events in the range, at most limit.', 'service-integration' ) ),
				'queued'         => $count + array( 'description' => __( 'Of those, deliveries this request queued: new ones and finished ones queued again.', 'service-integration' ) ),
				'already_queued' => $count + array( 'description' => __( 'Of those, deliveries already pending or in flight: they go out once.', 'service-integration' ) ),
				'more'           => array(
					'type'        => 'boolean',
					'description' => __( 'Whether events beyond limit remain in the range.', 'service-integration' ),
				),
				'next_from'      => array(
					'type'        => array( 'string', 'null' ),
					'format'      => 'date-time',
					'description' => __( 'When more: where to start the next replay.', 'service-integration' ),
				),
				'types'          => array(
					'type'        => 'array',
					'items'       => array(
						'type' => 'string',
						'enum' => self::EVENT_TYPES,
					),
					'description' => __( 'The event types replayed.', 'service-integration' ),
				),
				'dry_run'        => array( 'type' => 'boolean' ),
			),
		);
	}

	/**
	 * 405 with Allow for a method the route does not take (rather than core's 404).
	 *
	 * @param WP_REST_Request $request Request.
	 */
	public function method_not_allowed( $request ): WP_REST_Response {
		$response = rest_convert_error_to_response(
			new \WP_Error(
				'method_not_allowed',
				/* translators: %s: HTTP method. */
				sprintf( __( '%s is not allowed here; use POST.', 'service-integration' ), $request->get_method() ),
				array(
					'status'  => 405,
					'allowed' => array( 'POST' ),
				)
			)
		);
		$response->header( 'Allow', 'POST' );
		return $response;
	}

	/**
	 * Administrators only.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return true|\WP_Error
	 */
	public function permissions_check( $request ) {
		return Permissions::require_capability( 'manage_options' );
	}

	/**
	 * Forwards the call to the sidecar.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|\WP_Error
	 */
	public function forward( $request ) {
		$prefix = '/' . $this->namespace . '/' . $this->rest_base;
		$path   = '/v1' . substr( $request->get_route(), strlen( $prefix ) );
		$query  = $request->get_query_params();
		unset( $query['_locale'], $query['rest_route'] );
		if ( $query ) {
			$path .= '?' . http_build_query( $query );
		}
		$method = $request->get_method();
		$body   = in_array( $method, array( 'POST', 'PATCH', 'PUT' ), true ) ? (string) wp_json_encode( (object) ( $request->get_json_params() ?? array() ) ) : '';

		$answer = $this->sidecar->request( $method, $path, $body );
		if ( is_wp_error( $answer ) ) {
			return $answer;
		}
		// The admin notice of a disabled endpoint goes once it is enabled again or deleted
		// (a 404 on delete: it was gone already). A deletion is remembered, so that a notice
		// the sidecar sent or retried before it, arriving late, does not bring it back.
		if ( $answer['status'] < 400 && preg_match( '#^/v1/endpoints/([^/?]+)/enable$#', $path, $match ) ) {
			Endpoint_Notices::forget( $match[1] );
		} elseif ( 'DELETE' === $method && ( $answer['status'] < 400 || 404 === $answer['status'] ) && preg_match( '#^/v1/endpoints/([^/?]+)$#', $path, $match ) ) {
			Endpoint_Notices::deleted( $match[1] );
		}
		$response = new WP_REST_Response( $answer['body'], $answer['status'] );
		if ( is_array( $answer['body'] ) && isset( $answer['body']['secret'] ) ) {
			$response->header( 'Cache-Control', 'no-store' );
		}
		return $response;
	}

	/**
	 * Outbox counts.
	 *
	 * @param WP_REST_Request $request Request.
	 */
	public function outbox( $request ): WP_REST_Response {
		return new WP_REST_Response( Outbox::counts() );
	}

	/**
	 * Hands pending events to the sidecar now (the cron does it every minute). Waits up to
	 * 5 s for a hand-over already running elsewhere, then answers 409 hand_over_in_progress.
	 *
	 * @param WP_REST_Request $request Request.
	 */
	public function flush_outbox( $request ): WP_REST_Response {
		$result = Hand_Over::flush( Hand_Over::MAX_BATCHES, 5.0 );
		$status = 200;
		if ( Hand_Over::BUSY === $result['error'] ) {
			$status = 409;
		} elseif ( null !== $result['error'] ) {
			$status = 503;
		}
		return new WP_REST_Response( array_merge( $result, Outbox::counts() ), $status );
	}
}
