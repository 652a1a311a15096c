<?php
/**
 * The commande_fabrication (manufacturing order) post type and its custom fields.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Manufacturing;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A dedicated capability type, chosen at registration: the generic post capabilities never
 * apply, so edit_posts on a role opens nothing here.
 */
final class Manufacturing_Order_Type {

	const POST_TYPE = 'commande_fabrication';
	const REST_BASE = 'commandes-fabrication';

	/**
	 * The statuses a manufacturing order can have: core's own, never another plugin's
	 * (WooCommerce's order statuses are registered for every post type).
	 */
	/**
	 * The longest title, in bytes: wp_posts.post_title is a TEXT column, and a longer one makes
	 * the insert fail (core's 500 db_insert_error) instead of a 400 naming the field.
	 */
	const TITLE_MAX_BYTES = 65535;

	const STATUSES = array( 'draft', 'pending', 'future', 'publish', 'private' );

	/**
	 * Primitive capabilities of the type, for granting them to administrators.
	 */
	const ADMIN_CAPABILITIES = array(
		'edit_commande_fabrications',
		'edit_others_commande_fabrications',
		'edit_published_commande_fabrications',
		'edit_private_commande_fabrications',
		'publish_commande_fabrications',
		'read_commande_fabrications',
		'read_private_commande_fabrications',
		'delete_commande_fabrications',
		'delete_others_commande_fabrications',
		'delete_published_commande_fabrications',
		'delete_private_commande_fabrications',
	);

	/**
	 * Registers hooks.
	 *
	 * @param Idempotent_Request      $idempotent_request Creation once per Idempotency-Key.
	 * @param Source_Order_Uniqueness $source_orders      One live record per source order, when on.
	 */
	public static function register( Idempotent_Request $idempotent_request, Source_Order_Uniqueness $source_orders ): void {
		add_action( 'init', array( self::class, 'register_post_type' ) );

		/*
		 * Core builds a type's REST controller itself, with the post type as its only argument;
		 * the type's object keeps it (WP_Post_Type::$rest_controller, read by get_rest_controller()),
		 * so the one with its collaborators is set there as soon as the type exists.
		 */
		add_action(
			'registered_post_type_' . self::POST_TYPE,
			static function ( string $post_type, \WP_Post_Type $type ) use ( $idempotent_request, $source_orders ): void {
				$type->rest_controller = new Manufacturing_Orders_Controller( $post_type, $idempotent_request, $source_orders );
			},
			10,
			2
		);
		add_action( 'init', array( self::class, 'register_fields' ) );
		Manufacturing_Order_List_Screen::register();
		Manufacturing_Order_Edit_Screen::register();
		Manufacturing_Order_Fields_Box::register();
		Manufacturing_Order_Rows_Input::register();
	}

	/**
	 * The collection route of the post type's own REST controller
	 * (Manufacturing_Orders_Controller), /wp/v2/commandes-fabrication: what the abilities
	 * dispatch to.
	 */
	public static function rest_route(): string {
		return '/' . get_post_type_object( self::POST_TYPE )->rest_namespace . '/' . self::REST_BASE;
	}

	/**
	 * The record's schema as that route documents it (core's fields and the custom fields).
	 *
	 * @return array<string, mixed>
	 */
	public static function rest_item_schema(): array {
		return get_post_type_object( self::POST_TYPE )->get_rest_controller()->get_item_schema();
	}

	/**
	 * Registers the post type.
	 */
	public static function register_post_type(): void {
		register_post_type(
			self::POST_TYPE,
			array(
				'labels'                => self::labels(),
				'public'                => false,
				'publicly_queryable'    => false,
				'exclude_from_search'   => true,
				'show_ui'               => true,
				'show_in_menu'          => true,
				'menu_icon'             => 'dashicons-hammer',
				'show_in_rest'          => true,
				'rest_base'             => self::REST_BASE,
				'rest_controller_class' => Manufacturing_Orders_Controller::class,
				'supports'              => array( 'title', 'custom-fields', 'author' ),
				'capability_type'       => array( 'commande_fabrication', 'commande_fabrications' ),
				'map_meta_cap'          => true,
				'capabilities'          => array(
					'edit_post'     => 'edit_commande_fabrication',
					'edit_posts'    => 'edit_commande_fabrications',
					'publish_posts' => 'publish_commande_fabrications',
					'read_post'     => 'read_commande_fabrication',
					// Not public: reading a published record needs this primitive (see the controller).
					'read'          => 'read_commande_fabrications',
					'create_posts'  => 'edit_commande_fabrications',
				),
				'rewrite'               => false,
				'query_var'             => false,
				'can_export'            => true,
			)
		);
	}

	/**
	 * Whether a submitted title is one: a string, or core's `{ raw }` object, with more than
	 * white space.
	 *
	 * @param mixed $title The title as submitted.
	 */
	public static function has_title( $title ): bool {
		if ( is_array( $title ) ) {
			$title = $title['raw'] ?? null;
		}
		return is_string( $title ) && '' !== trim( $title );
	}

	/**
	 * Whether a submitted title fits the database column (TITLE_MAX_BYTES, as UTF-8 bytes).
	 *
	 * @param mixed $title The title as submitted (a string, or core's `{ raw }` object).
	 */
	public static function title_fits( $title ): bool {
		if ( is_array( $title ) ) {
			$title = $title['raw'] ?? '';
		}
		return ! is_string( $title ) || strlen( $title ) <= self::TITLE_MAX_BYTES;
	}

	/**
	 * Every label of the type, so no screen falls back to core's "Post" wording.
	 *
	 * @return array<string, string>
	 */
	public static function labels(): array {
		return array(
			'name'                     => _x( 'Manufacturing orders', 'post type general name', 'service-integration' ),
			'singular_name'            => _x( 'Manufacturing order', 'post type singular name', 'service-integration' ),
			'menu_name'                => _x( 'Manufacturing orders', 'admin menu', 'service-integration' ),
			'name_admin_bar'           => _x( 'Manufacturing order', 'add new on admin bar', 'service-integration' ),
			'add_new'                  => _x( 'Add new', 'manufacturing order', 'service-integration' ),
			'add_new_item'             => __( 'Add manufacturing order', 'service-integration' ),
			'new_item'                 => __( 'New manufacturing order', 'service-integration' ),
			'edit_item'                => __( 'Edit manufacturing order', 'service-integration' ),
			'view_item'                => __( 'View manufacturing order', 'service-integration' ),
			'view_items'               => __( 'View manufacturing orders', 'service-integration' ),
			'all_items'                => __( 'All manufacturing orders', 'service-integration' ),
			'search_items'             => __( 'Search manufacturing orders', 'service-integration' ),
			'not_found'                => __( 'No manufacturing orders found.', 'service-integration' ),
			'not_found_in_trash'       => __( 'No manufacturing orders found in Trash.', 'service-integration' ),
			'archives'                 => __( 'Manufacturing order archives', 'service-integration' ),
			'attributes'               => __( 'Manufacturing order attributes', 'service-integration' ),
			'filter_items_list'        => __( 'Filter manufacturing orders list', 'service-integration' ),
			'filter_by_date'           => __( 'Filter by date', 'service-integration' ),
			'items_list_navigation'    => __( 'Manufacturing orders list navigation', 'service-integration' ),
			'items_list'               => __( 'Manufacturing orders list', 'service-integration' ),
			'item_published'           => __( 'Manufacturing order published.', 'service-integration' ),
			'item_published_privately' => __( 'Manufacturing order published privately.', 'service-integration' ),
			'item_reverted_to_draft'   => __( 'Manufacturing order reverted to draft.', 'service-integration' ),
			'item_trashed'             => __( 'Manufacturing order trashed.', 'service-integration' ),
			'item_scheduled'           => __( 'Manufacturing order scheduled.', 'service-integration' ),
			'item_updated'             => __( 'Manufacturing order updated.', 'service-integration' ),
			'item_link'                => __( 'Manufacturing order link', 'service-integration' ),
			'item_link_description'    => __( 'A link to a manufacturing order.', 'service-integration' ),
		);
	}

	/**
	 * What the choices of a field are called on screen (the edit box's select, the list
	 * column), by stored value: the value stays `low`, `normal` or `high`, only its label is
	 * translated. A field without labels here (a site's own enum) shows its raw values.
	 *
	 * @param string $key Field key.
	 * @return array<string, string> Stored value => label.
	 */
	public static function option_labels( string $key ): array {
		if ( 'priority' !== $key ) {
			return array();
		}
		return array(
			'low'    => _x( 'Low', 'manufacturing order priority', 'service-integration' ),
			'normal' => _x( 'Normal', 'manufacturing order priority', 'service-integration' ),
			'high'   => _x( 'High', 'manufacturing order priority', 'service-integration' ),
		);
	}

	/**
	 * Default custom fields of a manufacturing order; site code adds more with the
	 * `service_integration_manufacturing_order_fields` filter (same shape).
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public static function fields(): array {
		$fields = array(
			'source_order_id'     => array(
				'type'        => 'integer',
				'description' => __( 'ID of the commerce order this manufacturing order was made from.', 'service-integration' ),
				'minimum'     => 0,
				'default'     => 0,
			),
			'source_order_number' => array(
				'type'        => 'string',
				'description' => __( 'Order number as shown to the customer.', 'service-integration' ),
				'default'     => '',
			),
			'items'               => array(
				'type'        => 'array',
				'description' => __( 'What to make: product, SKU, name and quantity.', 'service-integration' ),
				'default'     => array(),
				'items'       => array(
					'type'                 => 'object',
					'additionalProperties' => false,
					'properties'           => array(
						'product_id' => array(
							'type'    => 'integer',
							'minimum' => 0,
						),
						'sku'        => array( 'type' => 'string' ),
						'name'       => array( 'type' => 'string' ),
						'quantity'   => array(
							'type'    => 'integer',
							'minimum' => 1,
						),
					),
					'required'             => array( 'quantity' ),
				),
			),
			'due_date'            => array(
				'type'        => 'string',
				'pattern'     => '^(\\d{4}-\\d{2}-\\d{2})?$',
				// A day that exists (validate_value): the pattern alone takes 2026-02-30.
				'format'      => Calendar_Date::FORMAT,
				'description' => __( 'Date the order must be ready (YYYY-MM-DD).', 'service-integration' ),
				'default'     => '',
			),
			'priority'            => array(
				'type'        => 'string',
				'enum'        => array( 'low', 'normal', 'high' ),
				'description' => __( 'Production priority.', 'service-integration' ),
				'default'     => 'normal',
			),
			'notes'               => array(
				'type'        => 'string',
				'description' => __( 'Free-text instructions for the workshop.', 'service-integration' ),
				'default'     => '',
			),
		);
		/**
		 * Filters the custom fields of manufacturing orders (JSON-schema style per field).
		 *
		 * @since 0.1.0
		 *
		 * @param array<string, array<string, mixed>> $fields Field name => schema.
		 */
		$filtered = apply_filters( 'service_integration_manufacturing_order_fields', $fields );
		return is_array( $filtered ) ? self::normalize( $filtered ) : $fields;
	}

	/**
	 * Makes site-added fields safe to register: a field without a usable `type` is a
	 * string and an array without `items` holds strings (the meta API and the REST
	 * schema both need them); entries that are not a schema under a name are dropped. Pure
	 * (tests/php/ManufacturingFieldsTest.php).
	 *
	 * @param array $fields Field name => schema, as filtered.
	 * @return array<string, array<string, mixed>>
	 */
	public static function normalize( array $fields ): array {
		$types      = array( 'string', 'boolean', 'integer', 'number', 'array', 'object' );
		$normalized = array();
		foreach ( $fields as $key => $schema ) {
			if ( ! is_string( $key ) || '' === $key || ! is_array( $schema ) ) {
				continue;
			}
			if ( ! isset( $schema['type'] ) || ! in_array( $schema['type'], $types, true ) ) {
				$schema['type'] = 'string';
			}
			if ( 'array' === $schema['type'] && empty( $schema['items'] ) ) {
				$schema['items'] = array( 'type' => 'string' );
			}
			$normalized[ $key ] = $schema;
		}
		return $normalized;
	}

	/**
	 * Registers every field as typed post meta in REST, writable only by who may edit the record.
	 */
	public static function register_fields(): void {
		foreach ( self::fields() as $key => $schema ) {
			$has_default = array_key_exists( 'default', $schema );
			$default     = $schema['default'] ?? null;
			unset( $schema['default'] );
			$args = array(
				'type'              => $schema['type'],
				'description'       => $schema['description'] ?? '',
				'single'            => true,
				'sanitize_callback' => static fn( $value ) => self::sanitize_value( $value, $schema ),
				'auth_callback'     => static fn( $allowed, $meta_key, $post_id, $user_id ) => user_can( $user_id, 'edit_post', $post_id ),
				'show_in_rest'      => array( 'schema' => $schema ),
			);
			// Core refuses a field whose default does not match its type, null included.
			if ( $has_default ) {
				$args['default'] = $default;
			}
			register_post_meta( self::POST_TYPE, $key, $args );
		}
	}

	/**
	 * Validates a submitted value of a field against its schema: the one check shared by the
	 * REST route and the edit screen's box, so both accept and refuse the same values. Core's
	 * schema check, then, for a field of format `date` (Calendar_Date), that a non-empty value
	 * names a day that exists, refused as core refuses an impossible date-time
	 * (rest_invalid_date), naming the field.
	 *
	 * @param mixed  $value Submitted value.
	 * @param array  $field Field schema, as in fields().
	 * @param string $param Name the error message gives the value.
	 * @return true|\WP_Error
	 */
	public static function validate_value( $value, array $field, string $param ) {
		unset( $field['default'] );
		$shape = self::shape_error( $value, $field, $param );
		if ( null !== $shape ) {
			return $shape;
		}
		$valid = rest_validate_value_from_schema( $value, $field, $param );
		if ( is_wp_error( $valid ) ) {
			return $valid;
		}
		if ( Calendar_Date::FORMAT === ( $field['format'] ?? null ) && is_string( $value ) && '' !== $value && ! Calendar_Date::is_valid( $value ) ) {
			return new \WP_Error(
				'rest_invalid_date',
				/* translators: 1: field name (e.g. meta.due_date), 2: the value given. */
				sprintf( __( '%1$s is not a date that exists: %2$s (YYYY-MM-DD).', 'service-integration' ), $param, $value )
			);
		}
		return true;
	}

	/**
	 * What core's schema check words badly, worded for the sender. A list given as text
	 * ("CHAIR x2"): core splits text into a list itself and then says "items[0] is not of type
	 * object". A property an object does not have: core names the property without the path
	 * ("color is not a valid property of Object"). Paths are written as core writes them
	 * (meta.items[0][color]). Null when neither applies (core's check then runs).
	 *
	 * @param mixed  $value Submitted value.
	 * @param array  $field Field schema (or a nested one).
	 * @param string $param The value's path.
	 */
	private static function shape_error( $value, array $field, string $param ): ?\WP_Error {
		$type = $field['type'] ?? null;
		if ( 'array' === $type ) {
			if ( ! is_array( $value ) ) {
				return new \WP_Error(
					'rest_invalid_type',
					/* translators: %s: field name (e.g. meta.items). */
					sprintf( __( '%s must be an array (a JSON list), not text or a single value.', 'service-integration' ), $param )
				);
			}
			$items = isset( $field['items'] ) && is_array( $field['items'] ) ? $field['items'] : array();
			foreach ( array_values( $value ) as $index => $item ) {
				$error = self::shape_error( $item, $items, $param . '[' . $index . ']' );
				if ( null !== $error ) {
					return $error;
				}
			}
			return null;
		}
		if ( 'object' !== $type || ! is_array( $value ) || false !== ( $field['additionalProperties'] ?? true ) ) {
			return null;
		}
		$properties = isset( $field['properties'] ) && is_array( $field['properties'] ) ? $field['properties'] : array();
		foreach ( $value as $key => $property ) {
			if ( ! isset( $properties[ $key ] ) ) {
				return new \WP_Error(
					'rest_additional_properties_forbidden',
					sprintf(
						/* translators: 1: the unknown property's path (e.g. meta.items[0][color]), 2: the properties it may have, comma-separated. */
						__( '%1$s is not a known property: an entry has only %2$s.', 'service-integration' ),
						$param . '[' . $key . ']',
						implode( ', ', array_keys( $properties ) )
					)
				);
			}
			$error = self::shape_error( $property, $properties[ $key ], $param . '[' . $key . ']' );
			if ( null !== $error ) {
				return $error;
			}
		}
		return null;
	}

	/**
	 * Sanitises a value against its field schema once it is valid: the meta registration's
	 * sanitize_callback, so every write through the meta API (REST, the edit screen) runs it.
	 *
	 * @param mixed $value  Value.
	 * @param array $schema Field schema.
	 * @return mixed
	 */
	public static function sanitize_value( $value, array $schema ) {
		unset( $schema['default'] );
		$value = rest_sanitize_value_from_schema( $value, $schema );
		if ( is_string( $value ) ) {
			return sanitize_textarea_field( $value );
		}
		if ( 'array' === $schema['type'] && is_array( $value ) ) {
			return map_deep( $value, static fn( $item ) => is_string( $item ) ? sanitize_text_field( $item ) : $item );
		}
		return $value;
	}
}
