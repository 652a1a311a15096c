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
 * {args, sidecar_method?}, schema: what it answers, validate?: WordPress checks the arguments
 * first, receiving_url?: sources get their receiving URL, refuse_other_methods?: 405 with Allow}.
 * The arguments are the sidecar's own request fields (Sidecar_Contract, generated from its
 * schemas); docs/api/outbound-webhooks.md and docs/api/inbound-webhooks.md describe them.
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
			'/webhooks/endpoints'                                   => array(
				'sidecar' => '/v1/endpoints',
				'methods' => array(
					'GET'  => array(),
					'POST' => array( 'args' => $requests['endpoint.create'] ),
				),
				'schema'  => self::endpoint_schema( 'webhook-endpoints' ),
			),
			'/webhooks/endpoints/' . $endpoint_id                    => array(
				'sidecar' => '/v1/endpoints/{id}',
				'methods' => array(
					'GET'    => array(),
					'PATCH'  => array( 'args' => $requests['endpoint.update'] ),
					'DELETE' => array(),
				),
				'schema'  => self::endpoint_schema( 'webhook-endpoint' ),
			),
			'/webhooks/endpoints/' . $endpoint_id . '/rotate-secret' => array(
				'sidecar' => '/v1/endpoints/{id}/rotate-secret',
				'methods' => array( 'POST' => array( 'args' => $requests['endpoint.rotate'] ) ),
				'schema'  => self::endpoint_schema( 'webhook-endpoint-with-secret', array( 'secret' => self::text( __( 'The new signing secret, shown only in this answer.', 'service-integration' ) ) ) ),
			),
			'/webhooks/endpoints/' . $endpoint_id . '/enable'       => array(
				'sidecar' => '/v1/endpoints/{id}/enable',
				'methods' => array( 'POST' => array( 'args' => $requests['endpoint.enable'] ) ),
				'schema'  => self::endpoint_schema(
					'webhook-endpoint-enabled',
					array(
						'redelivered' => array( 'type' => 'boolean' ),
						'requeued'    => array( 'type' => 'integer' ),
						'skipped'     => array( 'type' => 'integer' ),
					)
				),
			),
			'/webhooks/endpoints/' . $endpoint_id . '/disable'      => array(
				'sidecar' => '/v1/endpoints/{id}/disable',
				'methods' => array( 'POST' => array( 'args' => $requests['endpoint.disable'] ) ),
				'schema'  => self::endpoint_schema( 'webhook-endpoint-disabled' ),
			),
			'/webhooks/endpoints/' . $endpoint_id . '/replay'       => array(
				'sidecar'              => '/v1/endpoints/{id}/replay',
				'validate'             => true,
				'refuse_other_methods' => true,
				'methods'              => array( 'POST' => array( 'args' => $requests['endpoint.replay'] ) ),
				'schema'               => self::replay_schema(),
			),
			'/webhooks/deliveries'                                  => array(
				'sidecar' => '/v1/deliveries',
				'methods' => array( 'GET' => array( 'args' => $requests['delivery.query'] ) ),
				'schema'  => self::list_schema( 'webhook-deliveries', 'deliveries' ),
			),
			'/webhooks/events/' . $event_id                         => array(
				'sidecar' => '/v1/events/{id}',
				'methods' => array( 'GET' => array() ),
				'schema'  => array(
					'title'      => 'webhook-event',
					'type'       => 'object',
					'properties' => array(
						'event'      => array(
							'type'        => 'object',
							'description' => __( 'The event: id, type, timestamp, ordering_key, received_at, payload_cleared_at, redacted_at, data.', 'service-integration' ),
						),
						'deliveries' => array(
							'type'        => 'array',
							'description' => __( 'Its deliveries, each with its attempts.', 'service-integration' ),
							'items'       => array( 'type' => 'object' ),
						),
					),
				),
			),
			'/webhooks/events/' . $event_id . '/replay'             => array(
				'sidecar' => '/v1/events/{id}/replay',
				'methods' => array( 'POST' => array( 'args' => $requests['event.replay'] ) ),
				'schema'  => self::requeued_schema( 'webhook-event-replay' ),
			),
			'/webhooks/replay'                                      => array(
				'sidecar' => '/v1/replay',
				'methods' => array( 'POST' => array( 'args' => $requests['replay.since'] ) ),
				'schema'  => self::requeued_schema( 'webhook-replay' ),
			),
			'/inbound/sources'                                      => array(
				'sidecar'       => '/v1/inbound/sources',
				'receiving_url' => true,
				'methods'       => array(
					'GET'  => array(),
					'POST' => array( 'args' => $requests['source.create'] ),
				),
				'schema'        => self::source_schema( 'inbound-sources' ),
			),
			'/inbound/sources/' . $source_id                        => array(
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
				'schema'        => self::source_schema( 'inbound-source' ),
			),
			'/inbound/sources/' . $source_id . '/rotate-secret'     => array(
				'sidecar'       => '/v1/inbound/sources/{id}/rotate-secret',
				'receiving_url' => true,
				'methods'       => array( 'POST' => array( 'args' => $requests['source.rotate'] ) ),
				'schema'        => self::source_schema( 'inbound-source-with-secret' ),
			),
			'/inbound/log'                                          => array(
				'sidecar'  => '/v1/inbound/log',
				'validate' => true,
				'methods'  => array( 'GET' => array( 'args' => $requests['inbound.log'] ) ),
				'schema'   => self::list_schema( 'inbound-log', 'entries' ),
			),
		);
	}

	/**
	 * The range replay's answer.
	 *
	 * @return array<string, mixed>
	 */
	private static function replay_schema(): array {
		$count = array( 'type' => 'integer' );
		return array(
			'title'      => 'webhook-endpoint-replay',
			'type'       => 'object',
			'properties' => array(
				'matched'        => $count + array( 'description' => __( 'Events in the range, at most limit.', 'service-integration' ) ),
				'queued'         => $count + array( 'description' => __( 'Of those, deliveries this request queued: new ones and finished ones queued again.', 'service-integration' ) ),
				'already_queued' => $count + array( 'description' => __( 'Of those, deliveries already pending or in flight: they go out once.', 'service-integration' ) ),
				'more'           => array(
					'type'        => 'boolean',
					'description' => __( 'Whether events beyond limit remain in the range.', 'service-integration' ),
				),
				'next_from'      => array(
					'type'        => array( 'string', 'null' ),
					'format'      => 'date-time',
					'description' => __( 'When more: where to start the next replay.', 'service-integration' ),
				),
				'types'          => array(
					'type'        => 'array',
					'items'       => array(
						'type' => 'string',
						'enum' => Sidecar_Contract::EVENT_TYPES,
					),
					'description' => __( 'The event types replayed.', 'service-integration' ),
				),
				'dry_run'        => array( 'type' => 'boolean' ),
			),
		);
	}

	/**
	 * What the endpoint routes answer.
	 *
	 * @param string               $title Title.
	 * @param array<string, mixed> $extra More properties.
	 * @return array<string, mixed>
	 */
	private static function endpoint_schema( string $title, array $extra = array() ): array {
		return array(
			'title'      => $title,
			'type'       => 'object',
			'properties' => array(
				'id'              => self::text( __( 'Endpoint id.', 'service-integration' ) ),
				'url'             => self::text( __( 'Where deliveries are POSTed.', 'service-integration' ) ),
				'status'          => array(
					'type' => 'string',
					'enum' => array( 'active', 'disabled' ),
				),
				'event_types'     => array(
					'type'  => 'array',
					'items' => array(
						'type' => 'string',
						'enum' => Sidecar_Contract::EVENT_TYPES,
					),
				),
				'disabled_reason' => array( 'type' => array( 'string', 'null' ) ),
				'endpoints'       => array(
					'type'        => 'array',
					'description' => __( 'The list (GET on the collection).', 'service-integration' ),
					'items'       => array( 'type' => 'object' ),
				),
			) + $extra,
		);
	}

	/**
	 * What the source routes answer.
	 *
	 * @param string $title Title.
	 * @return array<string, mixed>
	 */
	private static function source_schema( string $title ): array {
		return array(
			'title'      => $title,
			'type'       => 'object',
			'properties' => array(
				'id'            => self::text( __( 'The source\'s slug.', 'service-integration' ) ),
				'scheme'        => array(
					'type' => 'string',
					'enum' => Sidecar_Contract::INBOUND_SCHEMES,
				),
				'status'        => array(
					'type' => 'string',
					'enum' => Sidecar_Contract::SOURCE_STATUSES,
				),
				'receiving_url' => self::text( __( 'Where the provider must send (added by WordPress).', 'service-integration' ) ),
				'secret'        => self::text( __( 'The secret, only in the answer that generated it.', 'service-integration' ) ),
				'sources'       => array(
					'type'        => 'array',
					'description' => __( 'The list (GET on the collection).', 'service-integration' ),
					'items'       => array( 'type' => 'object' ),
				),
			),
		);
	}

	/**
	 * A page of a list.
	 *
	 * @param string $title Title.
	 * @param string $items The list's key.
	 * @return array<string, mixed>
	 */
	private static function list_schema( string $title, string $items ): array {
		return array(
			'title'      => $title,
			'type'       => 'object',
			'properties' => array(
				$items     => array(
					'type'  => 'array',
					'items' => array( 'type' => 'object' ),
				),
				'total'    => array( 'type' => 'integer' ),
				'page'     => array( 'type' => 'integer' ),
				'per_page' => array( 'type' => 'integer' ),
			),
		);
	}

	/**
	 * The answer of a replay that queues deliveries again.
	 *
	 * @param string $title Title.
	 * @return array<string, mixed>
	 */
	private static function requeued_schema( string $title ): array {
		return array(
			'title'      => $title,
			'type'       => 'object',
			'properties' => array(
				'requeued' => array(
					'type'        => 'integer',
					'description' => __( 'Deliveries queued again.', 'service-integration' ),
				),
			),
		);
	}

	/**
	 * A string property.
	 *
	 * @param string $description Description.
	 * @return array<string, string>
	 */
	private static function text( string $description ): array {
		return array(
			'type'        => 'string',
			'description' => $description,
		);
	}
}
