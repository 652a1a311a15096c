<?php
/**
 * Answer of GET /site-health/<test> (Rest\Site_Health_Controller).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest\Schemas;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * One Site Health test's result, in the shape Site Health expects.
 */
final class Site_Health_Result {

	/**
	 * The result.
	 *
	 * @return array<string, mixed>
	 */
	public static function result(): array {
		return Schema::answer(
			'service-integration-site-health-result',
			array(
				'label'       => Schema::field( 'string', __( 'The result\'s heading.', 'service-integration' ) ),
				'status'      => Schema::field( 'string', __( 'How serious it is.', 'service-integration' ), array( 'enum' => array( 'good', 'recommended', 'critical' ) ) ),
				'badge'       => Schema::object_field(
					__( 'The badge shown with it.', 'service-integration' ),
					array(
						'label' => Schema::field( 'string', __( 'Badge text.', 'service-integration' ) ),
						'color' => Schema::field( 'string', __( 'Badge colour.', 'service-integration' ) ),
					)
				),
				'description' => Schema::field( 'string', __( 'What was found (HTML).', 'service-integration' ) ),
				'actions'     => Schema::field( 'string', __( 'What to do (HTML).', 'service-integration' ) ),
				'test'        => Schema::field( 'string', __( 'The test\'s name.', 'service-integration' ) ),
			)
		);
	}
}
