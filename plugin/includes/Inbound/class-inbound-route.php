<?php
/**
 * REST: the receiving route for inbound webhooks.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Inbound;

use ServiceIntegration\Contracts;
use ServiceIntegration\Rest\Route_Args;
use ServiceIntegration\Sidecar\Sidecar_Client;
use WP_Error;
use WP_REST_Controller;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * POST /wp-json/service-integration-inbound/v1/<source>
 *
 * PHP does only cheap transport checks (method, content type, size), then hands the
 * exact body bytes and the provider's signature headers to the sidecar, which holds
 * the secrets and gives a signed verdict. A verified event is stored once and
 * acknowledged at once (202; 200 for a duplicate); handlers run later from cron
 * (Inbound_Processor). When the sidecar cannot answer, the sender gets 503 with
 * Retry-After and nothing is stored, so its retry is not lost.
 *
 * The sidecar's verification log then learns what the sender of a verified delivery got
 * (202, 200 or 5xx; see report_answer): its verdict alone says 200. A refusal needs no
 * report: its 4xx reaches the sender unchanged.
 */
final class Inbound_Route extends WP_REST_Controller {

	const ROUTE_NAMESPACE        = 'service-integration-inbound/v1';
	const DEFAULT_MAX_BODY_BYTES = 262144;
	const VERIFY_TIMEOUT         = 2.0;
	const RETRY_AFTER_SECONDS    = 30;
	const MAX_HEADER_BYTES       = 8192;
	const REPORT_TIMEOUT         = 1.0;

	/**
	 * Provider headers the sidecar needs: signatures, ids, timestamps, topics.
	 */
	const FORWARDED_HEADERS = array( 'stripe-signature', 'x-hub-signature-256', 'x-github-delivery', 'x-github-event' );

	/**
	 * Header families forwarded whole.
	 */
	const FORWARDED_PREFIXES = array( 'webhook-', 'x-shopify-', 'x-wc-webhook-' );

	/**
	 * Constructor.
	 *
	 * @param Sidecar_Client $sidecar Signed client.
	 */
	public function __construct( private Sidecar_Client $sidecar ) {
		$this->namespace = self::ROUTE_NAMESPACE;
	}

	/**
	 * The URL a provider is configured to send a source's webhooks to.
	 *
	 * @param string $source Source slug.
	 */
	public static function receiving_url( string $source ): string {
		return rest_url( self::ROUTE_NAMESPACE . '/' . $source );
	}

	/**
	 * Registers the route and the two REST filters it needs.
	 */
	public function register_routes(): void {
		register_rest_route(
			$this->namespace,
			'/(?P<source>' . Contracts::SOURCE_SLUG_PATTERN . ')',
			array(
				array(
					'methods'             => WP_REST_Server::CREATABLE,
					'callback'            => array( $this, 'receive' ),
					// Public on purpose: senders have no WordPress account. Authentication is the
					// provider's signature over the exact body, checked by the sidecar before
					// anything is stored: without it anyone who knows the URL could send false notifications.
					'permission_callback' => '__return_true',
					// Described only: the body is the provider's, passed on byte for byte.
					'args'                => Route_Args::described(
						array(
							'source' => array(
								'description' => __( 'The inbound source\'s slug, as created in the admin page.', 'service-integration' ),
								'type'        => 'string',
							),
						)
					),
				),
				array(
					'methods'             => 'GET, PUT, PATCH, DELETE',
					'callback'            => array( $this, 'method_not_allowed' ),
					// Public: it only answers 405.
					'permission_callback' => '__return_true',
					'args'                => array(),
				),
				'schema' => array( $this, 'get_item_schema' ),
			)
		);
		add_filter( 'rest_pre_dispatch', array( $this, 'check_transport' ), 5, 3 );
		add_filter( 'rest_request_before_callbacks', array( $this, 'keep_body_unparsed' ), 10, 3 );
		add_filter( 'rest_post_dispatch', array( $this, 'allow_post_only' ), 11, 3 );
	}

	/**
	 * What a sender gets: 202 for a new event, 200 for a duplicate (or a WooCommerce ping).
	 *
	 * @return array<string, mixed>
	 */
	public function get_item_schema(): array {
		return array(
			'$schema'    => 'http://json-schema.org/draft-04/schema#',
			'title'      => 'inbound-webhook-receipt',
			'type'       => 'object',
			'properties' => array(
				'received'  => array(
					'type'        => 'boolean',
					'description' => __( 'Whether the event is stored (now or earlier).', 'service-integration' ),
				),
				'duplicate' => array(
					'type'        => 'boolean',
					'description' => __( 'The event was stored before: acknowledged, not processed again.', 'service-integration' ),
				),
				'id'        => array(
					'type'        => 'integer',
					'description' => __( 'The stored event\'s id (new events only).', 'service-integration' ),
				),
				'ping'      => array(
					'type'        => 'boolean',
					'description' => __( 'A WooCommerce webhook\'s test ping: nothing stored.', 'service-integration' ),
				),
			),
		);
	}

	/**
	 * The source slug when the request is a POST to this route, else null. (Route
	 * parameters are not parsed yet when rest_pre_dispatch runs.)
	 *
	 * @param WP_REST_Request $request Request.
	 */
	private function receiving_source( WP_REST_Request $request ): ?string {
		if ( 'POST' !== $request->get_method() ) {
			return null;
		}
		// Core matches routes case-insensitively; so does this.
		$pattern = '#^/' . preg_quote( self::ROUTE_NAMESPACE, '#' ) . '/(' . Contracts::SOURCE_SLUG_PATTERN . ')$#i';
		return 1 === preg_match( $pattern, $request->get_route(), $match ) ? $match[1] : null;
	}

	/**
	 * Transport checks before core touches the body (it would JSON-decode it first):
	 * content type, size, emptiness. Also answers WooCommerce's unsigned activation ping
	 * (for a WooCommerce source only: see answer_ping).
	 *
	 * @param mixed           $result  Earlier filter result.
	 * @param WP_REST_Server  $server  Server.
	 * @param WP_REST_Request $request Request.
	 * @return mixed
	 */
	public function check_transport( $result, $server, $request ) {
		$source = null === $result && $request instanceof WP_REST_Request ? $this->receiving_source( $request ) : null;
		if ( null === $source ) {
			return $result;
		}
		$body = $request->get_body();
		// WooCommerce pings a new webhook with an unsigned form body and requires a 200; nothing is stored.
		if ( 1 === preg_match( '/^webhook_id=[0-9]{1,20}$/', $body ) ) {
			$ping = $this->answer_ping( $source );
			if ( null !== $ping ) {
				return $ping;
			}
		}
		$content_type = $request->get_content_type();
		if ( ! $content_type || 'application/json' !== strtolower( $content_type['value'] ) ) {
			return new WP_Error( 'inbound_unsupported_media_type', __( 'Webhooks must be sent with Content-Type: application/json.', 'service-integration' ), array( 'status' => 415 ) );
		}
		/**
		 * Largest webhook body accepted, in bytes (default 256 KB). The sidecar has its own
		 * limit (SIDECAR_MAX_BODY_BYTES, 1 MB by default).
		 *
		 * @param int    $bytes  Limit.
		 * @param string $source Source slug.
		 */
		$max = (int) apply_filters( 'service_integration_inbound_max_body_bytes', self::DEFAULT_MAX_BODY_BYTES, $source );
		if ( strlen( $body ) > $max ) {
			return new WP_Error(
				'inbound_body_too_large',
				/* translators: %d: limit in bytes. */
				sprintf( __( 'The webhook body exceeds %d bytes.', 'service-integration' ), $max ),
				array( 'status' => 413 )
			);
		}
		if ( '' === $body ) {
			return new WP_Error( 'inbound_empty_body', __( 'The webhook body is empty.', 'service-integration' ), array( 'status' => 400 ) );
		}
		return null;
	}

	/**
	 * WooCommerce's activation ping carries no signature, so it is answered 200 only for a
	 * known, active WooCommerce source (asked of the sidecar, which holds the sources);
	 * elsewhere it gets what any delivery there would: 404 unknown_source, 403
	 * source_disabled, or null for a source of another scheme (the transport checks then
	 * refuse the form body).
	 *
	 * @param string $source Source slug.
	 * @return WP_REST_Response|WP_Error|null
	 */
	private function answer_ping( string $source ) {
		$answer = $this->sidecar->request( 'GET', '/v1/inbound/sources/' . rawurlencode( $source ), '', array(), self::VERIFY_TIMEOUT );
		if ( is_wp_error( $answer ) ) {
			return self::retry_later( $answer );
		}
		if ( 404 === $answer['status'] ) {
			return new WP_Error( 'unknown_source', __( 'No inbound source with this name.', 'service-integration' ), array( 'status' => 404 ) );
		}
		$found = is_array( $answer['body'] ) ? $answer['body'] : array();
		if ( 200 !== $answer['status'] || ! isset( $found['scheme'], $found['status'] ) ) {
			return self::retry_later( new WP_Error( 'inbound_bad_verdict', __( 'The sidecar could not say whether this source exists.', 'service-integration' ), array( 'status' => 502 ) ) );
		}
		if ( 'woocommerce' !== $found['scheme'] ) {
			return null;
		}
		if ( 'active' !== $found['status'] ) {
			return new WP_Error( 'source_disabled', __( 'This inbound source is disabled.', 'service-integration' ), array( 'status' => 403 ) );
		}
		return new WP_REST_Response(
			array(
				'received' => false,
				'ping'     => true,
			),
			200
		);
	}

	/**
	 * Core refuses malformed JSON before the callback runs; here the signature is checked
	 * first (an unauthenticated sender learns nothing), and the sidecar reports bad JSON.
	 *
	 * @param mixed           $response Response so far (a WP_Error from core's JSON check).
	 * @param array           $handler  Matched handler.
	 * @param WP_REST_Request $request  Request.
	 * @return mixed
	 */
	public function keep_body_unparsed( $response, $handler, $request ) {
		if ( is_wp_error( $response ) && 'rest_invalid_json' === $response->get_error_code() && $request instanceof WP_REST_Request && null !== $this->receiving_source( $request ) ) {
			return null;
		}
		return $response;
	}

	/**
	 * Core's rest_send_allow_header (priority 10) lists every method the route has; senders
	 * may only POST.
	 *
	 * @param mixed           $response Response.
	 * @param WP_REST_Server  $server   Server.
	 * @param WP_REST_Request $request  Request.
	 * @return mixed
	 */
	public function allow_post_only( $response, $server, $request ) {
		if ( $response instanceof WP_REST_Response && $request instanceof WP_REST_Request && 1 === preg_match( '#^/' . preg_quote( self::ROUTE_NAMESPACE, '#' ) . '/#', $request->get_route() ) ) {
			$response->header( 'Allow', 'POST' );
		}
		return $response;
	}

	/**
	 * 405 for anything but POST.
	 *
	 * @param WP_REST_Request $request Request.
	 */
	public function method_not_allowed( $request ): WP_REST_Response {
		$response = rest_convert_error_to_response(
			new WP_Error( 'inbound_method_not_allowed', __( 'Webhooks must be sent with POST.', 'service-integration' ), array( 'status' => 405 ) )
		);
		$response->header( 'Allow', 'POST' );
		return $response;
	}

	/**
	 * Verifies through the sidecar, stores once, acknowledges.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function receive( $request ) {
		// The URL's source only: $request['source'] would prefer a "source" key of the JSON body.
		$source = (string) ( $request->get_url_params()['source'] ?? '' );
		$answer = $this->sidecar->request(
			'POST',
			'/v1/inbound/sources/' . rawurlencode( $source ) . '/verify',
			$request->get_body(),
			$this->forwarded_headers( $request ),
			self::VERIFY_TIMEOUT
		);

		if ( is_wp_error( $answer ) ) {
			// The sidecar is down, slow or misconfigured: not the sender's fault, so it should retry.
			return self::retry_later( $answer );
		}
		$verdict = is_array( $answer['body'] ) ? $answer['body'] : array();
		if ( 200 !== $answer['status'] ) {
			// 4xx: the verifier's refusal, passed to the sender unchanged (its log entry already says so).
			$error = new WP_Error(
				isset( $verdict['code'] ) ? (string) $verdict['code'] : 'inbound_refused',
				isset( $verdict['message'] ) ? (string) $verdict['message'] : __( 'The webhook was refused.', 'service-integration' ),
				array( 'status' => $answer['status'] )
			);
			return $answer['status'] >= 500 ? self::retry_later( $error ) : $error;
		}
		$log_id = isset( $verdict['log_id'] ) && is_int( $verdict['log_id'] ) && $verdict['log_id'] > 0 ? $verdict['log_id'] : null;
		if ( ! isset( $verdict['event_id'], $verdict['type'] ) || ! is_string( $verdict['event_id'] ) || ! is_string( $verdict['type'] ) || ! in_array( $verdict['data_pointer'] ?? null, array( '', '/data' ), true ) ) {
			return $this->answered( $log_id, self::retry_later( new WP_Error( 'inbound_bad_verdict', __( 'The sidecar answered without an event id or type.', 'service-integration' ), array( 'status' => 502 ) ) ) );
		}

		$delivery_id = self::delivery_id( $verdict['delivery_id'] ?? null );
		$id          = Inbound_Store::insert_once( $source, $verdict['event_id'], $verdict['type'], $request->get_body(), $verdict['data_pointer'], $delivery_id );
		if ( false === $id ) {
			return $this->answered( $log_id, self::retry_later( new WP_Error( 'inbound_store_unavailable', __( 'The event could not be stored; retry later.', 'service-integration' ), array( 'status' => 503 ) ) ) );
		}
		if ( 0 === $id ) {
			return $this->answered(
				$log_id,
				new WP_REST_Response(
					array(
						'received'  => true,
						'duplicate' => true,
					),
					200
				)
			);
		}
		Inbound_Processor::kick();
		return $this->answered(
			$log_id,
			new WP_REST_Response(
				array(
					'received'  => true,
					'duplicate' => false,
					'id'        => $id,
				),
				202
			)
		);
	}

	/**
	 * Arranges for the sidecar's log entry of this delivery to learn the status the sender
	 * got, once the sender has it (see report_answer).
	 *
	 * @param int|null         $log_id   The verdict's log entry, when it gave one.
	 * @param WP_REST_Response $response The answer to the sender.
	 */
	private function answered( ?int $log_id, WP_REST_Response $response ): WP_REST_Response {
		if ( null !== $log_id ) {
			$status = $response->get_status();
			// Late, so other shutdown work has run before the response is let go (as Hand_Over does).
			add_action(
				'shutdown',
				function () use ( $log_id, $status ): void {
					$this->report_answer( $log_id, $status );
				},
				100
			);
		}
		return $response;
	}

	/**
	 * Tells the sidecar what the sender of a verified delivery got (202 new, 200 duplicate,
	 * 5xx not stored), for the verification log. Best effort, with a short timeout: under
	 * PHP-FPM the sender is let go first (fastcgi_finish_request); elsewhere it waits for
	 * this one loopback call. A lost report leaves the entry without an answer, nothing else.
	 *
	 * @param int $log_id Log entry id from the verdict.
	 * @param int $status HTTP status sent.
	 */
	public function report_answer( int $log_id, int $status ): void {
		if ( function_exists( 'fastcgi_finish_request' ) ) {
			fastcgi_finish_request();
		}
		$this->sidecar->request_json( 'POST', '/v1/inbound/log/' . $log_id . '/answer', array( 'status' => $status ), self::REPORT_TIMEOUT );
	}

	/**
	 * The provider's delivery id from the verdict, when it is one worth showing.
	 *
	 * @param mixed $value Verdict field.
	 */
	private static function delivery_id( $value ): ?string {
		return is_string( $value ) && 1 === preg_match( '/^[\x21-\x7e]{1,255}$/', $value ) ? $value : null;
	}

	/**
	 * The provider headers to forward, each under the x-si-fwd- prefix.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return array<string, string>
	 */
	private function forwarded_headers( WP_REST_Request $request ): array {
		$forwarded = array();
		foreach ( $request->get_headers() as $key => $values ) {
			// WP_REST_Request keys are lower-cased with "-" turned into "_"; provider headers use "-".
			$name  = str_replace( '_', '-', strtolower( (string) $key ) );
			$value = implode( ', ', (array) $values );
			// Provider headers are printable ASCII; anything else is not worth a round trip.
			if ( strlen( $value ) > self::MAX_HEADER_BYTES || 1 === preg_match( '/[^\x20-\x7e\t]/', $value ) || ! self::is_forwarded( $name ) ) {
				continue;
			}
			$forwarded[ Contracts::FORWARD_HEADER_PREFIX . $name ] = $value;
		}
		return $forwarded;
	}

	/**
	 * Whether a header is one the sidecar needs.
	 *
	 * @param string $name Lower-case header name.
	 */
	private static function is_forwarded( string $name ): bool {
		if ( in_array( $name, self::FORWARDED_HEADERS, true ) ) {
			return true;
		}
		foreach ( self::FORWARDED_PREFIXES as $prefix ) {
			if ( str_starts_with( $name, $prefix ) ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A 5xx with Retry-After: the sender keeps the event and sends it again.
	 *
	 * @param WP_Error $error Error (its status is kept when it is a 5xx).
	 */
	private static function retry_later( WP_Error $error ): WP_REST_Response {
		$data   = $error->get_error_data();
		$status = is_array( $data ) && isset( $data['status'] ) && (int) $data['status'] >= 500 ? (int) $data['status'] : 503;
		// The reason can name the sidecar's address: keep it out of an answer to the internet.
		$response = rest_convert_error_to_response( new WP_Error( $error->get_error_code(), $error->get_error_message(), array( 'status' => $status ) ) );
		$response->header( 'Retry-After', (string) self::RETRY_AFTER_SECONDS );
		return $response;
	}
}
