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
 * Shows the sidecar as WordPress sees it, over the signed channel.
 *
 * Through /service-integration/v1/sidecar/status.
 *
 * ## EXAMPLES
 *
 *     wp service-integration sidecar status --user=admin
 */
final class Sidecar_Command {

	/**
	 * Shows whether WordPress reaches the sidecar, with its version and uptime.
	 *
	 * Over the signed channel. Exit code 1 when WordPress does not reach it; the error says why
	 * (not running, wrong key, …).
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
		Terminal::print_object( Rest_Runner::call( 'GET', '/sidecar/status' ), $assoc );
	}
}
