<?php
/**
 * REST: calls from the sidecar to WordPress, signed with the shared key.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use ServiceIntegration\Outbound\Hand_Over;
use ServiceIntegration\Sidecar\Channel_Signature;
use ServiceIntegration\Sidecar\Sidecar_Client;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * POST /service-integration/v1/sidecar/callback: notices from the sidecar (an endpoint
 * disabled, enabled or deleted; the sidecar ready to take the events the outbox holds).
 * Authenticated by the channel signature, not a user.
 * The signed subject is the REST route (not the URL), so /wp-json/... and
 * ?rest_route=... sign the same way.
 */
final class Sidecar_Callback_Controller extends Controller {

	/**
	 * The route's base.
	 *
	 * @var string
	 */
	protected $rest_base = 'sidecar/callback';

	/**
	 * Constructor.
	 *
	 * @param Sidecar_Client $sidecar   Sidecar client (holds the shared key).
	 * @param Hand_Over      $hand_over The outbox's hand-over, resumed on sidecar.ready.
	 */
	public function __construct( private Sidecar_Client $sidecar, private Hand_Over $hand_over ) {}

	/**
	 * Registers the route.
	 */
	public function register_routes(): void {
		// Described only: the signature covers the raw body, read as it came.
		$notice = Route_Args::described(
			array(
				'type'        => array(
					'description' => __( 'The notice: endpoint.disabled, endpoint.enabled, endpoint.deleted or sidecar.ready.', 'service-integration' ),
					'type'        => 'string',
				),
				'endpoint_id' => array(
					'description' => __( 'The endpoint it is about.', 'service-integration' ),
					'type'        => 'string',
				),
			)
		);
		$this->register_route( '', array( $this->endpoint( WP_REST_Server::CREATABLE, 'create_item', $notice ) ) );
	}

	/**
	 * The acknowledgement.
	 *
	 * @return array<string, mixed>
	 */
	protected function item_schema(): array {
		return Schemas\Sidecar::notice_receipt();
	}

	/**
	 * Accepts only requests signed with the shared key.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return true|WP_Error
	 */
	public function permissions_check( $request ) {
		$timestamp  = (int) $request->get_header( Channel_Signature::HEADER_TIMESTAMP );
		$request_id = (string) $request->get_header( Channel_Signature::HEADER_REQUEST_ID );
		$signature  = (string) $request->get_header( Channel_Signature::HEADER_SIGNATURE );

		if ( ! $this->sidecar->is_configured() || '' === $signature || '' === $request_id ) {
			return new WP_Error( 'sidecar_signature_missing', __( 'This route only accepts calls signed by the sidecar.', 'service-integration' ), array( 'status' => 401 ) );
		}

		$expected = Channel_Signature::sign_request( $this->sidecar->key(), $timestamp, $request_id, 'POST', $request->get_route(), $request->get_body() );
		if ( ! Channel_Signature::is_valid( $expected, $signature, $timestamp ) ) {
			return new WP_Error( 'sidecar_signature_invalid', __( 'The sidecar signature is invalid or expired.', 'service-integration' ), array( 'status' => 401 ) );
		}
		return true;
	}

	/**
	 * Handles a notice.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function create_item( $request ) {
		$notice = json_decode( $request->get_body(), true );
		if ( ! is_array( $notice ) || ! isset( $notice['type'] ) || ! is_string( $notice['type'] ) ) {
			return new WP_Error( 'rest_invalid_json', __( 'Expected a JSON object with a string "type".', 'service-integration' ), array( 'status' => 400 ) );
		}

		// The sidecar has started: what the outbox held while it was away goes now, not at the
		// next cron run or visitor request.
		if ( 'sidecar.ready' === $notice['type'] ) {
			$this->hand_over->resume_after_response();
		}

		/**
		 * Fires for each notice the sidecar sends (e.g. endpoint.disabled).
		 *
		 * @since 0.1.0
		 *
		 * @param string $type   Notice type.
		 * @param array  $notice Whole notice.
		 */
		do_action( 'service_integration_sidecar_notice', sanitize_key( str_replace( '.', '_', $notice['type'] ) ), $notice );

		return $this->view_response( array( 'received' => true ), $request, 202 );
	}
}
