<?php
/**
 * Ability service-integration/list-paid-orders: the paid-orders route.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Abilities;

use ServiceIntegration\Rest\Paid_Orders_Controller;
use ServiceIntegration\Rest\Permissions;
use ServiceIntegration\Rest\Route_Dispatcher;
use WP_Error;
use WP_REST_Response;

use const ServiceIntegration\REST_NAMESPACE;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * GET /service-integration/v1/commandes-payees as an ability: the same parameters (input),
 * the same orders with the same fields, and the paging the route gives in its headers as
 * fields: `total`, `total_pages`, `paid_before` (X-Paid-Before, the sync order's bound) and
 * `next`, the input of the next page (the route's `next` link: the next page number, or in
 * the sync order the cursor), null on the last page.
 */
final class List_Paid_Orders {

	const NAME = 'service-integration/list-paid-orders';

	/**
	 * Registration args.
	 *
	 * @return array<string, mixed>
	 */
	public static function args(): array {
		$controller = new Paid_Orders_Controller();
		$input      = self::input_schema( $controller );
		return array(
			'label'               => __( 'List paid orders', 'service-integration' ),
			'description'         => __( 'Lists the shop’s paid orders (processing and completed by default) with only the fields an automation needs: the paid-orders REST route, with the same parameters and paging. For an incremental sync, pass orderby=paid_at and then the `next` input of each answer until it is null.', 'service-integration' ),
			'input_schema'        => $input,
			'output_schema'       => self::output_schema( $controller, $input ),
			'execute_callback'    => array( self::class, 'execute' ),
			'permission_callback' => static fn() => Permissions::require_capability( Paid_Orders_Controller::CAPABILITY ),
			'meta'                => Abilities::meta(
				array(
					'readonly'    => true,
					'destructive' => false,
					'idempotent'  => true,
				)
			),
		);
	}

	/**
	 * The route's query parameters, but `context` (the route serves one).
	 *
	 * @param Paid_Orders_Controller $controller Controller.
	 * @return array<string, mixed>
	 */
	private static function input_schema( Paid_Orders_Controller $controller ): array {
		$params = $controller->get_collection_params();
		unset( $params['context'] );
		// An absent input is an empty one: every parameter has its default or is optional.
		return array( 'default' => array() ) + Rest_Schema::query_input( $params );
	}

	/**
	 * The page and its paging.
	 *
	 * @param Paid_Orders_Controller $controller Controller.
	 * @param array<string, mixed>   $input      Input schema.
	 * @return array<string, mixed>
	 */
	private static function output_schema( Paid_Orders_Controller $controller, array $input ): array {
		return array(
			'type'       => 'object',
			'properties' => array(
				'orders'      => array(
					'description' => __( 'The orders of the page, as the REST route serves them.', 'service-integration' ),
					'type'        => 'array',
					'items'       => Rest_Schema::output( $controller->get_item_schema() ),
				),
				'total'       => array(
					'description' => __( 'Orders matching the parameters (X-WP-Total); null with with_total false.', 'service-integration' ),
					'type'        => array( 'integer', 'null' ),
				),
				'total_pages' => array(
					'description' => __( 'Pages at this page size (X-WP-TotalPages); null with with_total false.', 'service-integration' ),
					'type'        => array( 'integer', 'null' ),
				),
				'next'        => array(
					'description' => __( 'The input for the next page (in the sync order, the cursor), or null on the last page.', 'service-integration' ),
					'type'        => array( 'object', 'null' ),
					'properties'  => Rest_Schema::output( $input )['properties'],
				),
				'paid_before' => array(
					'description' => __( 'In the sync order, the bound used: orders paid before this time, ISO 8601 in UTC (X-Paid-Before); null otherwise.', 'service-integration' ),
					'type'        => array( 'string', 'null' ),
				),
			),
		);
	}

	/**
	 * Runs the route.
	 *
	 * @param array<string, mixed>|null $input Validated input.
	 * @return array<string, mixed>|WP_Error
	 */
	public static function execute( $input = null ) {
		$response = Route_Dispatcher::dispatch_or_error( 'GET', '/' . REST_NAMESPACE . '/' . Paid_Orders_Controller::REST_BASE, is_array( $input ) ? $input : array() );
		if ( is_wp_error( $response ) ) {
			return $response;
		}
		$headers = $response->get_headers();
		return array(
			'orders'      => array_values( (array) $response->get_data() ),
			'total'       => isset( $headers['X-WP-Total'] ) ? (int) $headers['X-WP-Total'] : null,
			'total_pages' => isset( $headers['X-WP-TotalPages'] ) ? (int) $headers['X-WP-TotalPages'] : null,
			'next'        => self::next_input( $response ),
			'paid_before' => isset( $headers['X-Paid-Before'] ) ? (string) $headers['X-Paid-Before'] : null,
		);
	}

	/**
	 * The query of the route's `next` link, typed as this ability's input.
	 *
	 * @param WP_REST_Response $response The route's answer.
	 * @return array<string, mixed>|null
	 */
	private static function next_input( WP_REST_Response $response ): ?array {
		$link = (string) ( $response->get_headers()['Link'] ?? '' );
		if ( ! preg_match( '/<([^>]+)>;\s*rel="next"/', $link, $match ) ) {
			return null;
		}
		$query = array();
		wp_parse_str( (string) wp_parse_url( $match[1], PHP_URL_QUERY ), $query );
		$schema = self::input_schema( new Paid_Orders_Controller() );
		$query  = array_intersect_key( $query, $schema['properties'] );
		$typed  = rest_sanitize_value_from_schema( $query, $schema, 'next' );
		return is_array( $typed ) ? $typed : null;
	}
}
