<?php
/**
 * REST: the outbox of order events waiting for the sidecar.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use ServiceIntegration\Outbound\Hand_Over;
use ServiceIntegration\Outbound\Outbox;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

use const ServiceIntegration\REST_NAMESPACE;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * GET: the outbox's counts and last problems; POST: hand pending events over now.
 */
final class Outbox_Controller extends View_Controller {

	/** How long POST waits for a hand-over already running elsewhere. */
	const LOCK_WAIT = 5.0;

	/**
	 * Constructor.
	 *
	 * @param Hand_Over $hand_over Hand-over to the sidecar.
	 * @param Outbox    $outbox    The outbox whose state is answered.
	 */
	public function __construct( private Hand_Over $hand_over, private Outbox $outbox ) {
		$this->namespace = REST_NAMESPACE;
		$this->rest_base = 'webhooks/outbox';
	}

	/**
	 * Registers the route.
	 */
	public function register_routes(): void {
		register_rest_route(
			$this->namespace,
			'/' . $this->rest_base,
			array(
				array(
					'methods'             => WP_REST_Server::READABLE,
					'callback'            => array( $this, 'get_item' ),
					'permission_callback' => array( $this, 'get_item_permissions_check' ),
					'args'                => $this->context_args(),
				),
				array(
					'methods'             => WP_REST_Server::CREATABLE,
					'callback'            => array( $this, 'create_item' ),
					'permission_callback' => array( $this, 'get_item_permissions_check' ),
					'args'                => array(),
				),
				'schema' => array( $this, 'get_public_item_schema' ),
			)
		);
	}

	/**
	 * Administrators only.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return true|\WP_Error
	 */
	public function get_item_permissions_check( $request ) {
		return Permissions::require_capability( 'manage_options' );
	}

	/**
	 * Outbox counts.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|\WP_Error
	 */
	public function get_item( $request ) {
		$counts = $this->outbox->counts();
		return is_wp_error( $counts ) ? $counts : new WP_REST_Response( $this->view_data( $counts, $request ) );
	}

	/**
	 * Hands pending events to the sidecar now (the cron does it every minute). Waits up to
	 * LOCK_WAIT seconds for a hand-over already running elsewhere, then answers 409
	 * hand_over_in_progress; 503 when the sidecar could not take them.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|\WP_Error
	 */
	public function create_item( $request ) {
		$result = $this->hand_over->flush( Hand_Over::MAX_BATCHES, self::LOCK_WAIT );
		$status = 200;
		if ( Hand_Over::BUSY === $result['error'] ) {
			$status = 409;
		} elseif ( null !== $result['error'] ) {
			$status = 503;
		}
		$counts = $this->outbox->counts();
		if ( is_wp_error( $counts ) ) {
			return $counts;
		}
		// The counts are the outbox's totals; what this call moved is said apart from them.
		$answer = $counts + array(
			'error'           => $result['error'],
			'handed_over_now' => $result['handed_over'],
			'rejected_now'    => $result['rejected'],
		);
		return new WP_REST_Response( $this->view_data( $answer, $request ), $status );
	}

	/**
	 * The outbox's state (POST adds the error of this hand-over).
	 *
	 * @return array<string, mixed>
	 */
	public function get_item_schema() {
		if ( ! $this->schema ) {
			$this->schema = Schemas\Outbox::state();
		}
		return $this->add_additional_fields_schema( $this->schema );
	}
}
