<?php
/**
 * A list field of the manufacturing order box (items) edited as a table of rows.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Manufacturing;

use const ServiceIntegration\VERSION;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A field whose value is a list of flat objects (the items: SKU, name, quantity) is shown as
 * WooCommerce shows an order's items: one row per entry, one plain input per property, named
 * `<box input>[items][<row>][<property>]`, so the form works without JavaScript. A small
 * script (assets/rows-input.js) adds, removes and moves rows with real buttons and says what
 * changed in a live region; every label and announcement is translated here and handed to it
 * in data attributes.
 *
 * This class only turns rows into a value and back: the value then passes the same schema
 * check as the REST route (Manufacturing_Order_Type::validate_value), in the box's save.
 */
final class Manufacturing_Order_Rows_Input {

	/** Name of the hidden input that says the rows of a field were on the form (none submitted = empty list). */
	const PRESENT = 'service_integration_manufacturing_order_rows';

	/** Properties carried unchanged in a hidden input: they link a row to its product, nobody types them. */
	const CARRIED = array( 'product_id' );

	const SCRIPT = 'service-integration-manufacturing-order-rows';

	/**
	 * Registers hooks.
	 */
	public static function register(): void {
		add_action( 'admin_enqueue_scripts', array( self::class, 'enqueue' ) );
	}

	/**
	 * Loads the script and its style on this type's edit screens only.
	 */
	public static function enqueue(): void {
		$screen = get_current_screen();
		if ( ! $screen || 'post' !== $screen->base || Manufacturing_Order_Type::POST_TYPE !== $screen->post_type ) {
			return;
		}
		wp_enqueue_script( self::SCRIPT, plugins_url( 'assets/rows-input.js', __FILE__ ), array(), VERSION, true );
		wp_enqueue_style( self::SCRIPT, plugins_url( 'assets/rows-input.css', __FILE__ ), array(), VERSION );
	}

	/**
	 * Whether a field is a list of flat objects (every property a scalar), which rows can hold.
	 *
	 * @param array $field Field schema.
	 */
	public static function fits( array $field ): bool {
		$row = $field['items'] ?? null;
		if ( 'array' !== $field['type'] || ! is_array( $row ) || 'object' !== ( $row['type'] ?? null ) || empty( $row['properties'] ) || ! is_array( $row['properties'] ) ) {
			return false;
		}
		foreach ( $row['properties'] as $property ) {
			if ( ! is_array( $property ) || ! in_array( $property['type'] ?? 'string', array( 'string', 'integer', 'number' ), true ) ) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The value the submitted rows make: each row with its non-empty properties, as typed (the
	 * schema check then judges them, as it judges a REST body); a row left empty is no entry.
	 *
	 * @param mixed $rows Submitted rows, unslashed (absent when every row was removed).
	 * @return array<int, array<string, string>>|\WP_Error
	 */
	public static function parse( $rows ) {
		$value = self::value_of( $rows );
		if ( null === $value ) {
			return new \WP_Error( 'invalid_rows', __( 'The rows were not sent as rows.', 'service-integration' ) );
		}
		return $value;
	}

	/**
	 * The value parse() makes, or null when what was submitted is not rows (a scalar, or a row that is
	 * not a list of properties).
	 *
	 * @param mixed $rows Submitted rows, unslashed (absent when every row was removed).
	 * @return array<int, array<string, string>>|null
	 */
	public static function value_of( $rows ): ?array {
		if ( null === $rows ) {
			return array();
		}
		if ( ! is_array( $rows ) ) {
			return null;
		}
		$value = array();
		foreach ( $rows as $row ) {
			if ( ! is_array( $row ) ) {
				return null;
			}
			$entry = array();
			foreach ( $row as $property => $text ) {
				if ( is_string( $text ) && '' !== trim( $text ) ) {
					$entry[ (string) $property ] = trim( $text );
				}
			}
			if ( $entry ) {
				$value[] = $entry;
			}
		}
		return $value;
	}

	/**
	 * The first problem of the rows, said as the form shows them: the row's number from 1 and the
	 * column's header, in the site's language ("Row 1, Quantity: must be at least 1."); null when
	 * every row keeps its schema's rules for a required value, the type, the bounds, the length and
	 * the choices. The whole value then passes the REST route's schema check as well, whose
	 * message (core's, in English, 0-based) is left for what this does not check.
	 *
	 * @param array<int, array<string, string>> $value Rows as parse() made them.
	 * @param array                             $field Field schema.
	 */
	public static function problem( array $value, array $field ): ?string {
		$columns  = self::columns( $field );
		$schemas  = $field['items']['properties'];
		$required = isset( $field['items']['required'] ) && is_array( $field['items']['required'] ) ? $field['items']['required'] : array();
		foreach ( array_values( $value ) as $index => $row ) {
			foreach ( $schemas as $property => $schema ) {
				$reason = self::value_problem( $row[ $property ] ?? null, (array) $schema, in_array( $property, $required, true ) );
				if ( null !== $reason ) {
					return sprintf(
						/* translators: 1: row number, from 1, 2: column header (e.g. Quantity), 3: what is wrong (e.g. "must be at least 1."). */
						__( 'Row %1$d, %2$s: %3$s', 'service-integration' ),
						$index + 1,
						$columns[ $property ] ?? $property,
						$reason
					);
				}
			}
		}
		return null;
	}

	/**
	 * What is wrong with one typed value against its property's schema, or null.
	 *
	 * @param string|null $text     The value as typed (trimmed), null when left empty.
	 * @param array       $schema   The property's schema.
	 * @param bool        $required Whether the row must have it.
	 */
	private static function value_problem( ?string $text, array $schema, bool $required ): ?string {
		if ( null === $text ) {
			return $required ? __( 'is required.', 'service-integration' ) : null;
		}
		$type = $schema['type'] ?? 'string';
		if ( 'integer' === $type && ! preg_match( '/^-?\d+$/', $text ) ) {
			return __( 'must be a whole number.', 'service-integration' );
		}
		if ( 'number' === $type && ! is_numeric( $text ) ) {
			return __( 'must be a number.', 'service-integration' );
		}
		if ( in_array( $type, array( 'integer', 'number' ), true ) ) {
			if ( isset( $schema['minimum'] ) && is_numeric( $schema['minimum'] ) && (float) $text < (float) $schema['minimum'] ) {
				/* translators: %s: the smallest value allowed. */
				return sprintf( __( 'must be at least %s.', 'service-integration' ), (string) $schema['minimum'] );
			}
			if ( isset( $schema['maximum'] ) && is_numeric( $schema['maximum'] ) && (float) $text > (float) $schema['maximum'] ) {
				/* translators: %s: the largest value allowed. */
				return sprintf( __( 'must be at most %s.', 'service-integration' ), (string) $schema['maximum'] );
			}
		}
		if ( 'string' === $type && isset( $schema['maxLength'] ) && is_int( $schema['maxLength'] ) && mb_strlen( $text ) > $schema['maxLength'] ) {
			/* translators: %d: the most characters allowed. */
			return sprintf( _n( 'must be at most %d character long.', 'must be at most %d characters long.', $schema['maxLength'], 'service-integration' ), $schema['maxLength'] );
		}
		if ( isset( $schema['enum'] ) && is_array( $schema['enum'] ) && ! in_array( $text, array_map( 'strval', $schema['enum'] ), true ) ) {
			/* translators: %s: the values allowed, comma-separated. */
			return sprintf( __( 'must be one of: %s.', 'service-integration' ), implode( ', ', array_map( 'strval', $schema['enum'] ) ) );
		}
		return null;
	}

	/**
	 * Prints the rows of a field, then one empty row to type a new entry into.
	 *
	 * @param string $key     Field key.
	 * @param array  $field   Field schema.
	 * @param string $id      ID of the group (the field's label points at it).
	 * @param mixed  $value   Stored value, or the refused save's rows.
	 * @param string $name    Input name of the field.
	 * @param bool   $invalid Whether the last save refused this field.
	 */
	public static function render( string $key, array $field, string $id, $value, string $name, bool $invalid ): void {
		$columns = self::columns( $field );
		// Empty rows are no entries (parse() skips them): a refused save's are not shown again.
		$rows   = is_array( $value ) ? array_values( array_filter( $value, array( self::class, 'has_text' ) ) ) : array();
		$rows[] = array();
		printf(
			'<div id="%1$s" class="service-integration-mo-rows" role="group" aria-labelledby="%1$s-label"%2$s data-announce="%3$s">',
			esc_attr( $id ),
			$invalid ? ' aria-invalid="true"' : '',
			esc_attr(
				(string) wp_json_encode(
					array(
						/* translators: %d: number of the new row. */
						'added'   => __( 'Row %d added.', 'service-integration' ),
						/* translators: %d: number the row had. */
						'removed' => __( 'Row %d removed.', 'service-integration' ),
						/* translators: %d: number the row has now. */
						'moved'   => __( 'Row moved to position %d.', 'service-integration' ),
						/* translators: %d: number of the row. */
						'first'   => __( 'Row %d is already the first.', 'service-integration' ),
						/* translators: %d: number of the row. */
						'last'    => __( 'Row %d is already the last.', 'service-integration' ),
					)
				)
			)
		);
		printf( '<input type="hidden" name="%1$s[%2$s]" value="1" />', esc_attr( self::PRESENT ), esc_attr( $key ) );
		echo '<table class="widefat striped service-integration-mo-rows-table"><thead><tr>';
		foreach ( $columns as $property => $label ) {
			printf(
				'<th scope="col" class="service-integration-mo-rows-col-%1$s%2$s">%3$s</th>',
				esc_attr( sanitize_html_class( $property ) ),
				self::is_numeric( $field['items']['properties'][ $property ] ) ? ' service-integration-mo-rows-number' : '',
				esc_html( $label )
			);
		}
		printf( '<th scope="col" class="service-integration-mo-rows-actions"><span class="screen-reader-text">%s</span></th>', esc_html__( 'Actions', 'service-integration' ) );
		echo '</tr></thead><tbody>';
		foreach ( $rows as $index => $row ) {
			self::render_row( $id, $name, $field, $columns, $row, (string) $index, (string) ( $index + 1 ) );
		}
		echo '</tbody></table>';
		// The row the script copies for "Add row": its index and number are filled in then.
		echo '<template class="service-integration-mo-rows-template">';
		self::render_row( $id, $name, $field, $columns, array(), '__index__', '__number__' );
		echo '</template>';
		printf( '<p class="service-integration-mo-rows-add-line"><button type="button" class="button service-integration-mo-rows-add">%s</button></p>', esc_html__( 'Add row', 'service-integration' ) );
		echo '<p class="screen-reader-text service-integration-mo-rows-status" role="status" aria-live="polite"></p>';
		echo '</div>';
	}

	/**
	 * Prints one row. Labels that hold the row's number keep a template (`%d`) for the script.
	 *
	 * @param string                $id      Group ID.
	 * @param string                $name    Input name of the field.
	 * @param array                 $field   Field schema.
	 * @param array<string, string> $columns Property => column header.
	 * @param array                 $row     Row's values.
	 * @param string                $index   Index in the input names.
	 * @param string                $number  Number read out (index + 1).
	 */
	private static function render_row( string $id, string $name, array $field, array $columns, array $row, string $index, string $number ): void {
		echo '<tr class="service-integration-mo-row">';
		$first = true;
		foreach ( $columns as $property => $header ) {
			$schema   = $field['items']['properties'][ $property ];
			$input_id = $id . '-' . $index . '-' . sanitize_html_class( $property );
			/* translators: 1: column header (e.g. SKU), 2: row number. */
			$label = sprintf( __( '%1$s, row %2$s', 'service-integration' ), $header, '%d' );
			printf( '<td data-colname="%s">', esc_attr( $header ) );
			printf(
				'<label class="screen-reader-text" for="%1$s" data-template="%2$s">%3$s</label>',
				esc_attr( $input_id ),
				esc_attr( $label ),
				esc_html( str_replace( '%d', $number, $label ) )
			);
			$numeric = self::is_numeric( $schema );
			printf(
				'<input type="%1$s" id="%2$s" name="%3$s[%4$s][%5$s]" value="%6$s" class="%7$s"%8$s%9$s />',
				$numeric ? 'number' : 'text',
				esc_attr( $input_id ),
				esc_attr( $name ),
				esc_attr( $index ),
				esc_attr( $property ),
				esc_attr( self::text( $row[ $property ] ?? '' ) ),
				$numeric ? 'small-text' : 'regular-text',
				$numeric && isset( $schema['minimum'] ) && is_numeric( $schema['minimum'] ) ? ' min="' . esc_attr( (string) $schema['minimum'] ) . '"' : '',
				$numeric ? ' step="' . ( 'integer' === $schema['type'] ? '1' : 'any' ) . '"' : ''
			);
			if ( $first ) {
				foreach ( array_diff( array_keys( $field['items']['properties'] ), array_keys( $columns ) ) as $carried ) {
					printf( '<input type="hidden" name="%1$s[%2$s][%3$s]" value="%4$s" />', esc_attr( $name ), esc_attr( $index ), esc_attr( $carried ), esc_attr( self::text( $row[ $carried ] ?? '' ) ) );
				}
				$first = false;
			}
			echo '</td>';
		}
		echo '<td class="service-integration-mo-rows-actions">';
		$buttons = array(
			/* translators: %d: row number. */
			'up'     => array( __( 'Move row %d up', 'service-integration' ), '&#8593;' ),
			/* translators: %d: row number. */
			'down'   => array( __( 'Move row %d down', 'service-integration' ), '&#8595;' ),
			/* translators: %d: row number. */
			'remove' => array( __( 'Remove row %d', 'service-integration' ), '&#215;' ),
		);
		foreach ( $buttons as $action => list( $label, $symbol ) ) {
			printf(
				'<button type="button" class="button service-integration-mo-row-%1$s" data-action="%1$s" aria-label="%2$s" data-template="%3$s"><span aria-hidden="true">%4$s</span></button>',
				esc_attr( $action ),
				esc_attr( str_replace( '%d', $number, $label ) ),
				esc_attr( $label ),
				esc_html( $symbol ) // A fixed entity, which esc_html() keeps as it is.
			);
		}
		echo '</td></tr>';
	}

	/**
	 * The columns shown: every property but those carried, with a translated header.
	 *
	 * @param array $field Field schema.
	 * @return array<string, string> Property => header.
	 */
	private static function columns( array $field ): array {
		$known   = array(
			'sku'      => __( 'SKU', 'service-integration' ),
			'name'     => __( 'Name', 'service-integration' ),
			'quantity' => __( 'Quantity', 'service-integration' ),
		);
		$columns = array();
		foreach ( $field['items']['properties'] as $property => $schema ) {
			if ( in_array( $property, self::CARRIED, true ) ) {
				continue;
			}
			$columns[ $property ] = $known[ $property ] ?? ( ! empty( $schema['title'] ) && is_string( $schema['title'] ) ? $schema['title'] : ucfirst( str_replace( array( '_', '-' ), ' ', (string) $property ) ) );
		}
		return $columns;
	}

	/**
	 * Whether a property is typed as a number (a narrow column, a number input).
	 *
	 * @param array $schema The property's schema.
	 */
	private static function is_numeric( array $schema ): bool {
		return in_array( $schema['type'] ?? 'string', array( 'integer', 'number' ), true );
	}

	/**
	 * Whether a row holds anything.
	 *
	 * @param mixed $row Row.
	 */
	private static function has_text( $row ): bool {
		if ( ! is_array( $row ) ) {
			return false;
		}
		foreach ( $row as $value ) {
			if ( '' !== trim( self::text( $value ) ) ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A value as an input holds it.
	 *
	 * @param mixed $value Value.
	 */
	private static function text( $value ): string {
		return is_scalar( $value ) ? (string) $value : '';
	}
}
