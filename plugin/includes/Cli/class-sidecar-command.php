<?php
/**
 * WP-CLI: `wp service-integration sidecar`.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The sidecar as WordPress sees it (through /service-integration/v1/sidecar/status, over the
 * signed channel).
 *
 * ## EXAMPLES
 *
 *     wp service-integration sidecar status --user=admin
 */
final class Sidecar_Command {

	/**
	 * Shows whether WordPress reaches the sidecar over the signed channel, and its version and
	 * uptime; exit code 1 when it does not (the error says why: not running, wrong key, …).
	 *
	 * ## OPTIONS
	 *
	 * [--format=<format>]
	 * : How to print it.
	 * ---
	 * default: table
	 * options:
	 *   - table
	 *   - json
	 *   - yaml
	 * ---
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration sidecar status --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function status( array $args, array $assoc ): void {
		Rest_Runner::print_object( Rest_Runner::call( 'GET', '/sidecar/status' ), $assoc );
	}
}
