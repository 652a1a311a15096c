<?php
/**
 * The outbox hand-over's lock, so two requests (or a request and WP-Cron) never hand over the same rows.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The option row of the hand-over's Option_Lock and how long it holds. Plugin builds the one lock
 * of the request over it and gives it to Hand_Over, so the hand-over at shutdown and WP-Cron's
 * take the same one.
 */
final class Hand_Over_Lock {

	const OPTION = 'service_integration_hand_over_lock';
	const TTL    = 60;
}
