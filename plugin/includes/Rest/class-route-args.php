<?php
/**
 * Route arguments that describe a request without WordPress checking it.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * WordPress checks and converts every argument that has a type, before the permission check.
 * Some routes must read the request as it came (a signature over the raw body, the sidecar's
 * own checks and error codes): their arguments are described for OPTIONS only.
 */
final class Route_Args {

	/**
	 * The arguments, shown by OPTIONS, neither validated nor sanitised by WordPress; a required
	 * one is not enforced either (its description says it is required; the sidecar answers).
	 *
	 * @param array<string, array<string, mixed>> $args Arguments.
	 * @return array<string, array<string, mixed>>
	 */
	public static function described( array $args ): array {
		return array_map(
			static fn( array $arg ): array => array_merge(
				$arg,
				array(
					'validate_callback' => null,
					'sanitize_callback' => null,
					'required'          => false,
				)
			),
			$args
		);
	}
}
