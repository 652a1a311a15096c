<?php
/**
 * Building blocks of the answer schemas, in WordPress core's style.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest\Schemas;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The schema classes in this folder need only __(): `npm run contracts` loads them with php-cli
 * (no WordPress) to write the admin page's TypeScript types of these answers. An object lists
 * its properties as `required` (draft 4) unless the code may leave one out, so the types, and
 * the e2e tests that validate real answers against the schema, know which fields are always there.
 */
final class Schema {

	/** Every field of these answers is shown in both contexts the routes take. */
	const CONTEXT = array( 'view', 'edit' );

	/**
	 * A route's answer.
	 *
	 * @param string                              $title      Title (the object type of register_rest_field).
	 * @param array<string, array<string, mixed>> $properties Properties.
	 * @param string[]                            $optional   Properties the code may leave out.
	 * @return array<string, mixed>
	 */
	public static function answer( string $title, array $properties, array $optional = array() ): array {
		return array_merge(
			array(
				'$schema' => 'http://json-schema.org/draft-04/schema#',
				'title'   => $title,
			),
			self::object( $properties, $optional )
		);
	}

	/**
	 * An object with these properties.
	 *
	 * @param array<string, array<string, mixed>> $properties Properties.
	 * @param string[]                            $optional   Properties the code may leave out.
	 * @return array<string, mixed>
	 */
	public static function object( array $properties, array $optional = array() ): array {
		return array(
			'type'       => 'object',
			'properties' => $properties,
			'required'   => array_values( array_diff( array_keys( $properties ), $optional ) ),
		);
	}

	/**
	 * A read-only field.
	 *
	 * @param string|string[]      $type        JSON type(s).
	 * @param string               $description Translated description.
	 * @param array<string, mixed> $more        Other keywords (format, enum, items, properties…).
	 * @return array<string, mixed>
	 */
	public static function field( $type, string $description, array $more = array() ): array {
		return array_merge(
			array(
				'description' => $description,
				'type'        => $type,
				'context'     => self::CONTEXT,
				'readonly'    => true,
			),
			$more
		);
	}

	/**
	 * A read-only object field.
	 *
	 * @param string                              $description Translated description.
	 * @param array<string, array<string, mixed>> $properties  Properties.
	 * @param bool                                $nullable    Whether it may be null.
	 * @return array<string, mixed>
	 */
	public static function object_field( string $description, array $properties, bool $nullable = false ): array {
		return self::field( $nullable ? array( 'object', 'null' ) : 'object', $description, array_diff_key( self::object( $properties ), array( 'type' => true ) ) );
	}

	/**
	 * A read-only list field.
	 *
	 * @param string               $description Translated description.
	 * @param array<string, mixed> $items       Schema of one item.
	 * @return array<string, mixed>
	 */
	public static function list_field( string $description, array $items ): array {
		return self::field( 'array', $description, array( 'items' => $items ) );
	}

	/**
	 * A read-only map of names to booleans (an object, also when empty).
	 *
	 * @param string $description Translated description.
	 * @return array<string, mixed>
	 */
	public static function flags_field( string $description ): array {
		return self::field( 'object', $description, array( 'additionalProperties' => array( 'type' => 'boolean' ) ) );
	}

	/**
	 * A read-only ISO 8601 time, or null.
	 *
	 * @param string $description Translated description.
	 * @return array<string, mixed>
	 */
	public static function time_field( string $description ): array {
		return self::field( array( 'string', 'null' ), $description, array( 'format' => 'date-time' ) );
	}
}
