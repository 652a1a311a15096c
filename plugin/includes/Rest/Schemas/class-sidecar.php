<?php
/**
 * Answers of the sidecar status and callback routes (Rest\Sidecar_Status_Controller,
 * Rest\Sidecar_Callback_Controller).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest\Schemas;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * What WordPress itself answers about the sidecar.
 */
final class Sidecar {

	/**
	 * GET /sidecar/status: the sidecar's own status (its fields are the sidecar's, described by
	 * sidecar/src/contracts/views.ts), with what WordPress adds.
	 *
	 * @return array<string, mixed>
	 */
	public static function status(): array {
		return Schema::answer(
			'service-integration-sidecar-status',
			array(
				'reachable' => Schema::field( 'boolean', __( 'The sidecar answered over the signed channel (otherwise the route answers an error).', 'service-integration' ), array( 'enum' => array( true ) ) ),
				'url'       => Schema::field( 'string', __( 'The sidecar\'s URL.', 'service-integration' ), array( 'format' => 'uri' ) ),
			)
		);
	}

	/**
	 * POST /sidecar/callback: the acknowledgement of a notice.
	 *
	 * @return array<string, mixed>
	 */
	public static function notice_receipt(): array {
		return Schema::answer(
			'sidecar-notice-receipt',
			array(
				'received' => Schema::field( 'boolean', __( 'The notice was taken (the sidecar stops sending it).', 'service-integration' ), array( 'enum' => array( true ) ) ),
			)
		);
	}
}
