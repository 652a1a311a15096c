<?php
/**
 * REST: the receiving route for inbound webhooks.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Inbound;

use ServiceIntegration\Support\Logger;
use ServiceIntegration\Rest\Route_Args;
use ServiceIntegration\Rest\Schemas\Inbound_Receipt;
use ServiceIntegration\Sidecar\Sidecar_Client;
use ServiceIntegration\Sidecar_Contract;
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
 * (Inbound_Processor). When the sidecar cannot answer within VERIFY_TIMEOUT, the sender
 * gets 503 with Retry-After and nothing is stored, so its retry is not lost.
 *
 * The route is public, so its answers carry the documented code and message only: what
 * went wrong inside (the HTTP client's error, the sidecar's 5xx) goes to the PHP error log
 * (retry_later).
 *
 * The sidecar's verification log says what the sender was told. A refusal's 4xx reaches
 * the sender unchanged; a verdict asked for after the deadline this route sends along
 * (Sidecar_Contract::INBOUND_DEADLINE_HEADER) is logged as timed out, the sender having had its
 * 503 already; and for a good signature WordPress reports what it answered (202, 200 or
 * 5xx; see report_answer), without which the entry stays unconfirmed, never "verified".
 */
final class Inbound_Route extends WP_REST_Controller {

	const ROUTE_NAMESPACE        = 'service-integration-inbound/v1';
	const DEFAULT_MAX_BODY_BYTES = 262144;
	/**
	 * Seconds the route waits for the sidecar's verdict (and for its answer about a WooCommerce
	 * ping) before answering the sender 503 sidecar_unreachable: the one value of it
	 * (docs/api/inbound-webhooks.md, docs/configuration.md). It is also the deadline the
	 * sidecar is given, after which it logs the verification as timed out.
	 */
	const VERIFY_TIMEOUT      = 2.0;
	const RETRY_AFTER_SECONDS = 30;
	/** The two codes a sender is asked to retry with (docs/api/inbound-webhooks.md). */
	const SIDECAR_UNREACHABLE = 'sidecar_unreachable';
	const STORE_UNAVAILABLE   = 'inbound_store_unavailable';
	const MAX_HEADER_BYTES    = 8192;
	const REPORT_TIMEOUT      = 1.0;

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
	 * @param Inbound_Store  $store   Where verified events are stored.
	 */
	public function __construct( private Sidecar_Client $sidecar, private Inbound_Store $store ) {
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
			'/(?P<source>' . Sidecar_Contract::SOURCE_ID_PATTERN . ')',
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
	 * What a sender gets (Rest\Schemas\Inbound_Receipt).
	 *
	 * @return array<string, mixed>
	 */
	public function get_item_schema(): array {
		return Inbound_Receipt::receipt();
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
		$pattern = '#^/' . preg_quote( self::ROUTE_NAMESPACE, '#' ) . '/(' . Sidecar_Contract::SOURCE_ID_PATTERN . ')$#i';
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
		 * @since 0.1.0
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
			return self::retry_later( $source, $answer );
		}
		if ( 404 === $answer['status'] ) {
			return new WP_Error( 'unknown_source', __( 'No inbound source with this name.', 'service-integration' ), array( 'status' => 404 ) );
		}
		$found = is_array( $answer['body'] ) ? $answer['body'] : array();
		if ( 200 !== $answer['status'] || ! isset( $found['scheme'], $found['status'] ) ) {
			return self::retry_later( $source, self::sidecar_error( $answer, 'the sidecar could not say whether this source exists (a WooCommerce ping)' ) );
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
		$source  = (string) ( $request->get_url_params()['source'] ?? '' );
		$headers = $this->forwarded_headers( $request );

		// When this request stops waiting: a verdict the sidecar reaches later is logged as timed out.
		$headers[ Sidecar_Contract::INBOUND_DEADLINE_HEADER ] = (string) (int) floor( ( microtime( true ) + self::VERIFY_TIMEOUT ) * 1000 );

		$answer = $this->sidecar->request(
			'POST',
			'/v1/inbound/sources/' . rawurlencode( $source ) . '/verify',
			$request->get_body(),
			$headers,
			self::VERIFY_TIMEOUT
		);

		if ( is_wp_error( $answer ) ) {
			// The sidecar is down, slow or misconfigured: not the sender's fault, so it should retry.
			return self::retry_later( $source, $answer );
		}
		$verdict = is_array( $answer['body'] ) ? $answer['body'] : array();
		if ( $answer['status'] >= 400 && $answer['status'] < 500 && in_array( $verdict['code'] ?? null, Sidecar_Contract::INBOUND_REFUSAL_CODES, true ) ) {
			// The verifier's refusal, passed to the sender unchanged (its log entry already says so).
			return new WP_Error(
				$verdict['code'],
				isset( $verdict['message'] ) && is_string( $verdict['message'] ) ? $verdict['message'] : __( 'The webhook was refused.', 'service-integration' ),
				array( 'status' => $answer['status'] )
			);
		}
		if ( 200 !== $answer['status'] ) {
			// Not the sender's business: the sidecar's store is away, it was asked after the
			// deadline, or it refused this site's call (the channel: a key or clock problem).
			return self::retry_later( $source, self::sidecar_error( $answer, 'the sidecar could not verify it' ) );
		}
		$log_id = isset( $verdict['log_id'] ) && is_int( $verdict['log_id'] ) && $verdict['log_id'] > 0 ? $verdict['log_id'] : null;
		if ( ! isset( $verdict['event_id'], $verdict['type'] ) || ! is_string( $verdict['event_id'] ) || ! is_string( $verdict['type'] ) || ! in_array( $verdict['data_pointer'] ?? null, array( '', '/data' ), true ) ) {
			return $this->answered( $log_id, self::retry_later( $source, new WP_Error( 'inbound_bad_verdict', 'the sidecar answered without an event id or type' ) ) );
		}

		$delivery_id = self::delivery_id( $verdict['delivery_id'] ?? null );
		$id          = $this->store->insert_once( $source, $verdict['event_id'], $verdict['type'], $request->get_body(), $verdict['data_pointer'], $delivery_id );
		if ( is_wp_error( $id ) ) {
			return $this->answered( $log_id, self::retry_later( $source, new WP_Error( 'inbound_store_unavailable', 'the event could not be written to the database' ), self::STORE_UNAVAILABLE ) );
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
			$data   = $response->get_data();
			$code   = is_array( $data ) && isset( $data['code'] ) && is_string( $data['code'] ) ? $data['code'] : null;
			// Late, so other shutdown work has run before the response is let go (as Hand_Over does).
			add_action(
				'shutdown',
				function () use ( $log_id, $status, $code ): void {
					$this->report_answer( $log_id, $status, $code );
				},
				100
			);
		}
		return $response;
	}

	/**
	 * Tells the sidecar what the sender of a verified delivery got (202 new, 200 duplicate,
	 * 5xx not stored, with its code), for the verification log. Best effort, with a short
	 * timeout: under PHP-FPM the sender is let go first (fastcgi_finish_request); elsewhere it
	 * waits for this one loopback call. A lost report leaves the entry unconfirmed, nothing else.
	 *
	 * @param int         $log_id Log entry id from the verdict.
	 * @param int         $status HTTP status sent.
	 * @param string|null $code   The error code sent with a 5xx.
	 */
	public function report_answer( int $log_id, int $status, ?string $code = null ): void {
		if ( function_exists( 'fastcgi_finish_request' ) ) {
			fastcgi_finish_request();
		}
		$report = array( 'status' => $status );
		if ( null !== $code ) {
			$report['code'] = $code;
		}
		$this->sidecar->request_json( 'POST', '/v1/inbound/log/' . $log_id . '/answer', $report, self::REPORT_TIMEOUT );
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
			$forwarded[ Sidecar_Contract::FORWARDED_HEADER_PREFIX . $name ] = $value;
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
	 * The error a sidecar answer other than a verdict or a refusal stands for, for the log.
	 *
	 * @param array{status:int, body:mixed} $answer The sidecar's answer.
	 * @param string                        $what   What failed.
	 */
	private static function sidecar_error( array $answer, string $what ): WP_Error {
		$body = is_array( $answer['body'] ) ? $answer['body'] : array();
		return new WP_Error(
			'sidecar_answered_' . $answer['status'],
			sprintf(
				'%1$s: HTTP %2$d %3$s %4$s',
				$what,
				$answer['status'],
				isset( $body['code'] ) && is_string( $body['code'] ) ? $body['code'] : '',
				isset( $body['message'] ) && is_string( $body['message'] ) ? $body['message'] : ''
			)
		);
	}

	/**
	 * What the sender is told when its webhook cannot be taken now: 503 with Retry-After, so
	 * it keeps the event and sends it again, with one of the two documented codes and a fixed
	 * message. The route is public: what went wrong inside (the HTTP client's error, which
	 * names the sidecar's address and its timeout, or the sidecar's own answer) goes to the
	 * PHP error log, one line with a clear prefix and no secret, never into the answer.
	 *
	 * @param string   $source Source slug (from the URL).
	 * @param WP_Error $detail What went wrong, for the log only.
	 * @param string   $code   SIDECAR_UNREACHABLE (nothing could be verified) or STORE_UNAVAILABLE.
	 */
	private static function retry_later( string $source, WP_Error $detail, string $code = self::SIDECAR_UNREACHABLE ): WP_REST_Response {
		$data   = $detail->get_error_data();
		$reason = is_array( $data ) && isset( $data['reason'] ) && is_string( $data['reason'] ) ? ' (' . $data['reason'] . ')' : '';
		Logger::error( // An operator must see why senders are asked to retry.
			sprintf(
				'Service Integration: inbound webhook for source "%1$s" not taken, answered 503 %2$s: %3$s: %4$s%5$s',
				$source,
				$code,
				$detail->get_error_code(),
				$detail->get_error_message(),
				$reason
			)
		);
		$message  = self::STORE_UNAVAILABLE === $code
			? __( 'The event could not be stored now; send it again later.', 'service-integration' )
			: __( 'The webhook could not be verified now; send it again later.', 'service-integration' );
		$response = rest_convert_error_to_response( new WP_Error( $code, $message, array( 'status' => 503 ) ) );
		$response->header( 'Retry-After', (string) self::RETRY_AFTER_SECONDS );
		return $response;
	}
}
