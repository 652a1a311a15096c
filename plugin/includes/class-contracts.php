<?php
/**
 * The patterns of WordPress's own routes beside the sidecar's values (Sidecar_Contract).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * What the plugin's routes match that the sidecar does not name itself, and how a pattern of
 * either becomes a whole-value one.
 */
final class Contracts {

	/** An endpoint id (the sidecar makes them, ep_…; the same characters as event ids). */
	const ENDPOINT_ID_PATTERN = Sidecar_Contract::EVENT_ID_PATTERN;

	/**
	 * A pattern as a whole-value JSON Schema pattern.
	 *
	 * @param string $pattern One of the patterns above or of Sidecar_Contract.
	 */
	public static function anchored( string $pattern ): string {
		return '^' . $pattern . '$';
	}
}
