<?php
/**
 * The route table of Sidecar_Proxy_Controller.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use ServiceIntegration\Contracts;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * WordPress route => {sidecar: its path under /v1 ({id} from the URL), methods: method =>
 * {args, sidecar_method?}, schema: what it answers, validate?: WordPress checks the arguments
 * first, receiving_url?: sources get their receiving URL, refuse_other_methods?: 405 with Allow}.
 * The fields are the sidecar's (docs/api/outbound-webhooks.md, docs/api/inbound-webhooks.md).
 */
final class Sidecar_Proxy_Routes {

	/** The most events one range replay takes (the sidecar's REPLAY_MAX_LIMIT). */
	const REPLAY_MAX_LIMIT = 10000;

	/**
	 * Every proxied route.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public static function all(): array {
		$endpoint_id = '(?P<id>' . Contracts::ENDPOINT_ID_PATTERN . ')';
		$event_id    = '(?P<id>' . Contracts::EVENT_ID_PATTERN . ')';
		$source_id   = '(?P<id>' . Contracts::SOURCE_SLUG_PATTERN . ')';
		return array(
			'/webhooks/endpoints'                                   => array(
				'sidecar' => '/v1/endpoints',
				'methods' => array(
					'GET'  => array(),
					'POST' => array( 'args' => self::endpoint_fields( true ) ),
				),
				'schema'  => self::endpoint_schema( 'webhook-endpoints' ),
			),
			'/webhooks/endpoints/' . $endpoint_id                    => array(
				'sidecar' => '/v1/endpoints/{id}',
				'methods' => array(
					'GET'    => array(),
					'PATCH'  => array( 'args' => self::endpoint_fields( false ) ),
					'DELETE' => array(),
				),
				'schema'  => self::endpoint_schema( 'webhook-endpoint' ),
			),
			'/webhooks/endpoints/' . $endpoint_id . '/rotate-secret' => array(
				'sidecar' => '/v1/endpoints/{id}/rotate-secret',
				'methods' => array( 'POST' => array( 'args' => array( 'grace_hours' => self::grace_hours() ) ) ),
				'schema'  => self::endpoint_schema( 'webhook-endpoint-with-secret', array( 'secret' => self::text( __( 'The new signing secret, shown only in this answer.', 'service-integration' ) ) ) ),
			),
			'/webhooks/endpoints/' . $endpoint_id . '/enable'       => array(
				'sidecar' => '/v1/endpoints/{id}/enable',
				'methods' => array(
					'POST' => array(
						'args' => array(
							'redeliver' => array(
								'description' => __( 'Queue again what the endpoint missed (default: true after an automatic disable, false after the owner\'s).', 'service-integration' ),
								'type'        => 'boolean',
							),
						),
					),
				),
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
				'methods' => array(
					'POST' => array(
						'args' => array(
							'reason' => array(
								'description' => __( 'Why, shown with the endpoint (1 to 500 characters).', 'service-integration' ),
								'type'        => 'string',
								'minLength'   => 1,
								'maxLength'   => 500,
							),
						),
					),
				),
				'schema'  => self::endpoint_schema( 'webhook-endpoint-disabled' ),
			),
			'/webhooks/endpoints/' . $endpoint_id . '/replay'       => array(
				'sidecar'              => '/v1/endpoints/{id}/replay',
				'validate'             => true,
				'refuse_other_methods' => true,
				'methods'              => array( 'POST' => array( 'args' => self::replay_args() ) ),
				'schema'               => self::replay_schema(),
			),
			'/webhooks/deliveries'                                  => array(
				'sidecar' => '/v1/deliveries',
				'methods' => array(
					'GET' => array(
						'args' => array(
							'endpoint_id' => array(
								'description' => __( 'Only this endpoint\'s deliveries.', 'service-integration' ),
								'type'        => 'string',
							),
							'type'        => array(
								'description' => __( 'Only deliveries of this event type.', 'service-integration' ),
								'type'        => 'string',
								'enum'        => Contracts::EVENT_TYPES,
							),
							'status'      => array(
								'description' => __( 'Only deliveries in this status.', 'service-integration' ),
								'type'        => 'string',
								'enum'        => Contracts::DELIVERY_STATUSES,
							),
						) + self::paging(),
					),
				),
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
				'methods' => array(
					'POST' => array(
						'args' => array(
							'endpoint_id' => array(
								'description' => __( 'Only to this endpoint (default: every endpoint it went to).', 'service-integration' ),
								'type'        => 'string',
							),
						),
					),
				),
				'schema'  => self::requeued_schema( 'webhook-event-replay' ),
			),
			'/webhooks/replay'                                      => array(
				'sidecar' => '/v1/replay',
				'methods' => array(
					'POST' => array(
						'args' => array(
							'since'       => array(
								'description' => __( 'Required. Every delivery that failed or was cancelled since then (ISO 8601 with a time zone) goes out again.', 'service-integration' ),
								'type'        => 'string',
								'format'      => 'date-time',
							),
							'endpoint_id' => array(
								'description' => __( 'Only this endpoint\'s deliveries.', 'service-integration' ),
								'type'        => 'string',
							),
						),
					),
				),
				'schema'  => self::requeued_schema( 'webhook-replay' ),
			),
			'/inbound/sources'                                      => array(
				'sidecar'       => '/v1/inbound/sources',
				'receiving_url' => true,
				'methods'       => array(
					'GET'  => array(),
					'POST' => array( 'args' => self::source_fields( true ) ),
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
						'args'           => self::source_fields( false ),
						'sidecar_method' => 'PATCH',
					),
					'PATCH'  => array( 'args' => self::source_fields( false ) ),
					'DELETE' => array(),
				),
				'schema'        => self::source_schema( 'inbound-source' ),
			),
			'/inbound/sources/' . $source_id . '/rotate-secret'     => array(
				'sidecar'       => '/v1/inbound/sources/{id}/rotate-secret',
				'receiving_url' => true,
				'methods'       => array(
					'POST' => array(
						'args' => array(
							'secret'      => self::text( __( 'The new secret, when the provider issues it (default: one is generated).', 'service-integration' ) ),
							'grace_hours' => self::grace_hours(),
						),
					),
				),
				'schema'        => self::source_schema( 'inbound-source-with-secret' ),
			),
			'/inbound/log'                                          => array(
				'sidecar'  => '/v1/inbound/log',
				'validate' => true,
				'methods'  => array(
					'GET' => array(
						'args' => array(
							'source'  => array(
								'description' => __( 'Only this source\'s verifications.', 'service-integration' ),
								'type'        => 'string',
								'pattern'     => Contracts::anchored( Contracts::SOURCE_SLUG_PATTERN ),
							),
							'outcome' => array(
								'description' => __( 'Only verified or only refused deliveries.', 'service-integration' ),
								'type'        => 'string',
								'enum'        => Contracts::INBOUND_OUTCOMES,
							),
						) + self::paging(),
					),
				),
				'schema'   => self::list_schema( 'inbound-log', 'entries' ),
			),
		);
	}

	/**
	 * The range replay's arguments (checked by WordPress first, then by the sidecar).
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public static function replay_args(): array {
		return array(
			'from'    => array(
				'description' => __( 'Start of the range (inclusive), ISO 8601 with a time zone; compared with when the sidecar received each event.', 'service-integration' ),
				'type'        => 'string',
				'format'      => 'date-time',
				'required'    => true,
			),
			'to'      => array(
				'description' => __( 'End of the range (exclusive), ISO 8601 with a time zone; later than from.', 'service-integration' ),
				'type'        => 'string',
				'format'      => 'date-time',
				'required'    => true,
			),
			'types'   => array(
				'description' => __( 'Event types to replay; default: the ones the endpoint subscribes to (all when it lists none).', 'service-integration' ),
				'type'        => 'array',
				'items'       => array(
					'type' => 'string',
					'enum' => Contracts::EVENT_TYPES,
				),
				'minItems'    => 1,
				'uniqueItems' => true,
			),
			'limit'   => array(
				'description' => __( 'At most this many events (default 1000); more says whether others remain.', 'service-integration' ),
				'type'        => 'integer',
				'minimum'     => 1,
				'maximum'     => self::REPLAY_MAX_LIMIT,
			),
			'dry_run' => array(
				'description' => __( 'Only count what would be replayed.', 'service-integration' ),
				'type'        => 'boolean',
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
						'enum' => Contracts::EVENT_TYPES,
					),
					'description' => __( 'The event types replayed.', 'service-integration' ),
				),
				'dry_run'        => array( 'type' => 'boolean' ),
			),
		);
	}

	/**
	 * An endpoint's writable fields.
	 *
	 * @param bool $creating Whether for a new endpoint (url is then required by the sidecar).
	 * @return array<string, array<string, mixed>>
	 */
	private static function endpoint_fields( bool $creating ): array {
		return array(
			'url'                 => array(
				'description' => $creating ? __( 'Required. Where deliveries are POSTed (http or https, a public address).', 'service-integration' ) : __( 'Where deliveries are POSTed.', 'service-integration' ),
				'type'        => 'string',
				'format'      => 'uri',
				'maxLength'   => 2048,
			),
			'event_types'         => array(
				'description' => __( 'Event types it receives; empty: all.', 'service-integration' ),
				'type'        => 'array',
				'items'       => array(
					'type' => 'string',
					'enum' => Contracts::EVENT_TYPES,
				),
				'maxItems'    => 20,
			),
			'description'         => array(
				'description' => __( 'A note for the site owner.', 'service-integration' ),
				'type'        => 'string',
				'maxLength'   => 500,
			),
			'max_concurrency'     => array(
				'description' => __( 'Deliveries in flight to it at most.', 'service-integration' ),
				'type'        => 'integer',
				'minimum'     => 1,
				'maximum'     => 64,
			),
			'wc_compat_signature' => array(
				'description' => __( 'Also sign as WooCommerce\'s own webhooks do (X-WC-Webhook-Signature).', 'service-integration' ),
				'type'        => 'boolean',
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
						'enum' => Contracts::EVENT_TYPES,
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
	 * An inbound source's writable fields.
	 *
	 * @param bool $creating Whether for a new source (id and scheme are then required by the sidecar).
	 * @return array<string, array<string, mixed>>
	 */
	private static function source_fields( bool $creating ): array {
		$fields = array(
			'scheme'            => array(
				'description' => __( 'How the provider signs.', 'service-integration' ),
				'type'        => 'string',
				'enum'        => Contracts::INBOUND_SCHEMES,
			),
			'status'            => array(
				'type' => 'string',
				'enum' => Contracts::SOURCE_STATUSES,
			),
			'description'       => array(
				'type'      => 'string',
				'maxLength' => 500,
			),
			'tolerance_seconds' => array(
				'description' => __( 'How old a signed timestamp may be (null: the scheme\'s default).', 'service-integration' ),
				'type'        => array( 'integer', 'null' ),
				'minimum'     => 0,
				'maximum'     => 86400,
			),
		);
		if ( $creating ) {
			$fields = array(
				'id'     => array(
					'description' => __( 'Required. The slug, last segment of the receiving URL.', 'service-integration' ),
					'type'        => 'string',
					'pattern'     => Contracts::anchored( Contracts::SOURCE_SLUG_PATTERN ),
				),
				'secret' => self::text( __( 'The provider\'s secret (default: one is generated).', 'service-integration' ) ),
			) + $fields;
		}
		return $fields;
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
					'enum' => Contracts::INBOUND_SCHEMES,
				),
				'status'        => array(
					'type' => 'string',
					'enum' => Contracts::SOURCE_STATUSES,
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
	 * Page and page size.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	private static function paging(): array {
		return array(
			'page'     => array(
				'description' => __( 'Page, from 1.', 'service-integration' ),
				'type'        => 'integer',
				'minimum'     => 1,
				'maximum'     => 1000000,
			),
			'per_page' => array(
				'description' => __( 'Items per page (default 20).', 'service-integration' ),
				'type'        => 'integer',
				'minimum'     => 1,
				'maximum'     => 100,
			),
		);
	}

	/**
	 * The grace period of a secret rotation.
	 *
	 * @return array<string, mixed>
	 */
	private static function grace_hours(): array {
		return array(
			'description' => __( 'Hours the previous secret stays valid (default 24, at most 720).', 'service-integration' ),
			'type'        => 'number',
			'minimum'     => 0,
			'maximum'     => 720,
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
