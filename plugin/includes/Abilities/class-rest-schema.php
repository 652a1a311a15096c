<?php
/**
 * A REST route's schema or args, as an ability's JSON Schema.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Abilities;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The abilities take their schemas from the routes' own (get_item_schema(),
 * get_collection_params()), never from a copy. What only the REST API reads is dropped
 * (callbacks, contexts, readonly, arg_options), and an argument's `required: true` becomes
 * the object's `required` list, as JSON Schema and MCP clients read it.
 */
final class Rest_Schema {

	const REST_ONLY = array( '$schema', 'context', 'readonly', 'arg_options', 'validate_callback', 'sanitize_callback' );

	/**
	 * A schema an ability validates its input with: unknown properties are refused.
	 *
	 * @param array<string, mixed> $schema REST schema.
	 * @return array<string, mixed>
	 */
	public static function input( array $schema ): array {
		return self::clean( $schema, false );
	}

	/**
	 * The input schema of a route's query: as input(), but a date-time is left to the route to
	 * check, since core's schema check refuses a bad one as "Invalid date." without naming the
	 * field, where the route answers rest_invalid_param naming it.
	 *
	 * @param array<string, array<string, mixed>> $args Route args, name => schema.
	 * @return array<string, mixed>
	 */
	public static function query_input( array $args ): array {
		foreach ( $args as $name => $arg ) {
			if ( 'date-time' === ( $arg['format'] ?? null ) ) {
				unset( $args[ $name ]['format'] );
			}
		}
		return self::input(
			array(
				'type'                 => 'object',
				'properties'           => $args,
				'additionalProperties' => false,
			)
		);
	}

	/**
	 * A schema an ability's output is checked against, without `format`: a value the route
	 * serves (an order without a billing email, a date without its zone) stays servable.
	 *
	 * @param array<string, mixed> $schema REST schema.
	 * @return array<string, mixed>
	 */
	public static function output( array $schema ): array {
		return self::clean( $schema, true );
	}

	/**
	 * Drops what only the REST API reads, recursively.
	 *
	 * @param array<string, mixed> $schema     Schema.
	 * @param bool                 $for_output Whether to drop `format` too.
	 * @return array<string, mixed>
	 */
	private static function clean( array $schema, bool $for_output ): array {
		$drop   = $for_output ? array_merge( self::REST_ONLY, array( 'format' ) ) : self::REST_ONLY;
		$schema = array_diff_key( $schema, array_flip( $drop ) );
		if ( isset( $schema['properties'] ) && is_array( $schema['properties'] ) ) {
			$required = isset( $schema['required'] ) && is_array( $schema['required'] ) ? $schema['required'] : array();
			foreach ( $schema['properties'] as $name => $property ) {
				if ( ! is_array( $property ) ) {
					continue;
				}
				if ( is_bool( $property['required'] ?? null ) ) {
					if ( $property['required'] ) {
						$required[] = $name;
					}
					unset( $property['required'] );
				}
				$schema['properties'][ $name ] = self::clean( $property, $for_output );
			}
			if ( $required ) {
				$schema['required'] = array_values( array_unique( $required ) );
			}
		}
		if ( isset( $schema['items'] ) && is_array( $schema['items'] ) ) {
			$schema['items'] = self::clean( $schema['items'], $for_output );
		}
		return $schema;
	}
}
