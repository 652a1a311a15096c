<?php
/**
 * The route table of Sidecar_Proxy_Controller.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use ServiceIntegration\Contracts;
use ServiceIntegration\Sidecar_Contract;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * WordPress route => {sidecar: its path under /v1 ({id} from the URL), methods: method =>
 * {args, sidecar_method?}, schema: the title of what it answers in Sidecar_Contract::responses(),
 * validate?: WordPress checks the arguments first, receiving_url?: sources get their receiving
 * URL, refuse_other_methods?: 405 with Allow}. The arguments and the answers are the sidecar's
 * own (Sidecar_Contract, generated from its zod schemas); docs/api/outbound-webhooks.md and
 * docs/api/inbound-webhooks.md describe them.
 */
final class Sidecar_Proxy_Routes {

	/**
	 * Every proxied route.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public static function all(): array {
		$endpoint_id = '(?P<id>' . Contracts::ENDPOINT_ID_PATTERN . ')';
		$event_id    = '(?P<id>' . Sidecar_Contract::EVENT_ID_PATTERN . ')';
		$source_id   = '(?P<id>' . Sidecar_Contract::SOURCE_ID_PATTERN . ')';
		$requests    = Sidecar_Contract::requests();
		return array(
			'/webhooks/endpoints'                       => array(
				'sidecar' => '/v1/endpoints',
				'methods' => array(
					'GET'  => array(),
					'POST' => array( 'args' => $requests['endpoint.create'] ),
				),
				'schema'  => 'webhook-endpoints',
			),
			'/webhooks/endpoints/' . $endpoint_id       => array(
				'sidecar' => '/v1/endpoints/{id}',
				'methods' => array(
					'GET'    => array(),
					'PATCH'  => array( 'args' => $requests['endpoint.update'] ),
					'DELETE' => array(),
				),
				'schema'  => 'webhook-endpoint',
			),
			'/webhooks/endpoints/' . $endpoint_id . '/rotate-secret' => array(
				'sidecar' => '/v1/endpoints/{id}/rotate-secret',
				'methods' => array( 'POST' => array( 'args' => $requests['endpoint.rotate'] ) ),
				'schema'  => 'webhook-endpoint-with-secret',
			),
			'/webhooks/endpoints/' . $endpoint_id . '/enable' => array(
				'sidecar' => '/v1/endpoints/{id}/enable',
				'methods' => array( 'POST' => array( 'args' => $requests['endpoint.enable'] ) ),
				'schema'  => 'webhook-endpoint-enabled',
			),
			'/webhooks/endpoints/' . $endpoint_id . '/disable' => array(
				'sidecar' => '/v1/endpoints/{id}/disable',
				'methods' => array( 'POST' => array( 'args' => $requests['endpoint.disable'] ) ),
				'schema'  => 'webhook-endpoint-disabled',
			),
			'/webhooks/endpoints/' . $endpoint_id . '/test' => array(
				'sidecar'              => '/v1/endpoints/{id}/test',
				'refuse_other_methods' => true,
				'methods'              => array( 'POST' => array( 'args' => $requests['endpoint.test'] ) ),
				'schema'               => 'webhook-endpoint-test',
			),
			'/webhooks/endpoints/' . $endpoint_id . '/replay' => array(
				'sidecar'              => '/v1/endpoints/{id}/replay',
				'validate'             => true,
				'refuse_other_methods' => true,
				'methods'              => array( 'POST' => array( 'args' => $requests['endpoint.replay'] ) ),
				'schema'               => 'webhook-endpoint-replay',
			),
			'/webhooks/deliveries'                      => array(
				'sidecar' => '/v1/deliveries',
				'methods' => array( 'GET' => array( 'args' => $requests['delivery.query'] ) ),
				'schema'  => 'webhook-deliveries',
			),
			'/webhooks/events/' . $event_id             => array(
				'sidecar' => '/v1/events/{id}',
				'methods' => array( 'GET' => array() ),
				'schema'  => 'webhook-event',
			),
			'/webhooks/events/' . $event_id . '/replay' => array(
				'sidecar' => '/v1/events/{id}/replay',
				'methods' => array( 'POST' => array( 'args' => $requests['event.replay'] ) ),
				'schema'  => 'webhook-event-replay',
			),
			'/webhooks/replay'                          => array(
				'sidecar' => '/v1/replay',
				'methods' => array( 'POST' => array( 'args' => $requests['replay.since'] ) ),
				'schema'  => 'webhook-replay',
			),
			'/inbound/sources'                          => array(
				'sidecar'       => '/v1/inbound/sources',
				'receiving_url' => true,
				'methods'       => array(
					'GET'  => array(),
					'POST' => array( 'args' => $requests['source.create'] ),
				),
				'schema'        => 'inbound-sources',
			),
			'/inbound/sources/' . $source_id            => array(
				'sidecar'       => '/v1/inbound/sources/{id}',
				'receiving_url' => true,
				'methods'       => array(
					'GET'    => array(),
					// POST on one source changes it, for clients that cannot send PATCH.
					'POST'   => array(
						'args'           => $requests['source.update'],
						'sidecar_method' => 'PATCH',
					),
					'PATCH'  => array( 'args' => $requests['source.update'] ),
					'DELETE' => array(),
				),
				'schema'        => 'inbound-source',
			),
			'/inbound/sources/' . $source_id . '/rotate-secret' => array(
				'sidecar'       => '/v1/inbound/sources/{id}/rotate-secret',
				'receiving_url' => true,
				'methods'       => array( 'POST' => array( 'args' => $requests['source.rotate'] ) ),
				'schema'        => 'inbound-source-with-secret',
			),
			'/inbound/log'                              => array(
				'sidecar'  => '/v1/inbound/log',
				'validate' => true,
				'methods'  => array( 'GET' => array( 'args' => $requests['inbound.log'] ) ),
				'schema'   => 'inbound-log',
			),
		);
	}
}
