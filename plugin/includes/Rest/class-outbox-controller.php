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

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * GET: the outbox's counts and last problems; POST: hand pending events over now.
 */
final class Outbox_Controller extends Controller {

	/** How long POST waits for a hand-over already running elsewhere. */
	const LOCK_WAIT = 5.0;

	/**
	 * The route's base.
	 *
	 * @var string
	 */
	protected $rest_base = 'webhooks/outbox';

	/**
	 * Administrators only.
	 *
	 * @var string[]
	 */
	protected array $capabilities = array( 'manage_options' );

	/**
	 * Constructor.
	 *
	 * @param Hand_Over $hand_over Hand-over to the sidecar.
	 * @param Outbox    $outbox    The outbox whose state is answered.
	 */
	public function __construct( private Hand_Over $hand_over, private Outbox $outbox ) {}

	/**
	 * Registers the route.
	 */
	public function register_routes(): void {
		$this->register_route(
			'',
			array(
				$this->endpoint( WP_REST_Server::READABLE, 'get_item', $this->context_args() ),
				$this->endpoint( WP_REST_Server::CREATABLE, 'create_item' ),
			)
		);
	}

	/**
	 * Outbox counts.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|\WP_Error
	 */
	public function get_item( $request ) {
		$counts = $this->outbox->counts();
		return is_wp_error( $counts ) ? $counts : $this->view_response( $counts, $request );
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
		return $this->view_response( $answer, $request, $status );
	}

	/**
	 * The outbox's state (POST adds the error of this hand-over).
	 *
	 * @return array<string, mixed>
	 */
	protected function item_schema(): array {
		return Schemas\Outbox::state();
	}
}
