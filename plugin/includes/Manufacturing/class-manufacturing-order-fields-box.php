<?php
/**
 * The edit screen's box of a manufacturing order's custom fields.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Manufacturing;

use WP_Post;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Shows and edits every registered field (site-added ones included), in place of core's
 * raw Custom Fields box, which lists only some of them and checks none.
 *
 * A submitted value passes the same schema check as the REST route and is written through
 * the meta API, so the registration's sanitize_callback runs on it as it does for REST.
 * If any field is invalid none is written; the errors and what was typed survive the
 * redirect in a short-lived transient of the user and the record. A list of flat objects
 * (the items) is edited as rows (Manufacturing_Order_Rows_Input), another array or object
 * as JSON.
 */
final class Manufacturing_Order_Fields_Box {

	const BOX_ID       = 'service-integration-manufacturing-order-fields';
	const INPUT        = 'service_integration_manufacturing_order';
	const NONCE_NAME   = 'service_integration_manufacturing_order_nonce';
	const NONCE_ACTION = 'service_integration_manufacturing_order_fields';
	const FAILURE_TTL  = 5 * MINUTE_IN_SECONDS;

	/**
	 * Record whose fields were refused in this request (its redirect loses core's "updated" message).
	 *
	 * @var int
	 */
	private static $refused_post = 0;

	/**
	 * Failures read back for display, by record ID (read once: the transient is deleted).
	 *
	 * @var array<int, array{errors: array<string, string>, values: array<string, string|array>}|null>
	 */
	private static $failures = array();

	/**
	 * Registers hooks.
	 */
	public static function register(): void {
		$type = Manufacturing_Order_Type::POST_TYPE;
		add_action( "add_meta_boxes_{$type}", array( self::class, 'add_box' ) );
		add_action( "save_post_{$type}", array( self::class, 'save' ), 10, 2 );
		add_filter( 'redirect_post_location', array( self::class, 'redirect_location' ), 10, 2 );
		add_action( 'admin_notices', array( self::class, 'render_notice' ) );
	}

	/**
	 * Adds the box and removes core's Custom Fields box. The type keeps `custom-fields`
	 * support: REST exposes registered meta only for types that support it.
	 */
	public static function add_box(): void {
		$type = Manufacturing_Order_Type::POST_TYPE;
		remove_meta_box( 'postcustom', $type, 'normal' );
		add_meta_box( self::BOX_ID, __( 'Manufacturing order details', 'service-integration' ), array( self::class, 'render' ), $type, 'normal', 'high' );
	}

	/**
	 * Prints the box: one row per field, with an input that fits its schema.
	 *
	 * @param WP_Post $post Record.
	 */
	public static function render( $post ): void {
		$failure = self::failure( (int) $post->ID );
		wp_nonce_field( self::NONCE_ACTION, self::NONCE_NAME );
		echo '<table class="form-table service-integration-manufacturing-order-fields" role="presentation"><tbody>';
		foreach ( Manufacturing_Order_Type::fields() as $key => $field ) {
			$id      = 'service-integration-mo-' . sanitize_html_class( $key );
			$invalid = isset( $failure['errors'][ $key ] );
			if ( Manufacturing_Order_Rows_Input::fits( $field ) ) {
				// A group of inputs has no single input to label: the group names itself by this.
				printf(
					'<tr class="service-integration-mo-field%1$s" data-field="%2$s"><th scope="row"><span id="%3$s-label">%4$s</span></th><td>',
					$invalid ? ' form-invalid' : '',
					esc_attr( $key ),
					esc_attr( $id ),
					esc_html( self::label( $key, $field ) )
				);
				$rows = array_key_exists( $key, $failure['values'] ?? array() ) ? $failure['values'][ $key ] : get_post_meta( $post->ID, $key, true );
				Manufacturing_Order_Rows_Input::render( $key, $field, $id, $rows, self::INPUT . '[' . $key . ']', $invalid );
				echo '</td></tr>';
				continue;
			}
			$value = $failure['values'][ $key ] ?? self::input_value( get_post_meta( $post->ID, $key, true ), $field );
			$value = is_string( $value ) ? $value : '';
			printf(
				'<tr class="service-integration-mo-field%1$s" data-field="%2$s"><th scope="row"><label for="%3$s">%4$s</label></th><td>',
				$invalid ? ' form-invalid' : '',
				esc_attr( $key ),
				esc_attr( $id ),
				esc_html( self::label( $key, $field ) )
			);
			self::render_input( $key, $field, $id, $value, $invalid );
			if ( ! empty( $field['description'] ) && is_string( $field['description'] ) ) {
				printf( '<p class="description" id="%1$s-description">%2$s</p>', esc_attr( $id ), esc_html( $field['description'] ) );
			}
			if ( 'json' === self::kind( $key, $field, $value ) ) {
				printf( '<p class="description">%s</p>', esc_html__( 'Written as JSON; leave it empty for the default.', 'service-integration' ) );
			}
			echo '</td></tr>';
		}
		echo '</tbody></table>';
	}

	/**
	 * Prints the input of one field.
	 *
	 * @param string $key     Field key.
	 * @param array  $field   Field schema.
	 * @param string $id      Input ID.
	 * @param string $value   Value as the input holds it.
	 * @param bool   $invalid Whether the last save refused this field.
	 */
	private static function render_input( string $key, array $field, string $id, string $value, bool $invalid ): void {
		$name       = self::INPUT . '[' . $key . ']';
		$attributes = array(
			'id'   => $id,
			'name' => $name,
		);
		if ( ! empty( $field['description'] ) ) {
			$attributes['aria-describedby'] = $id . '-description';
		}
		if ( $invalid ) {
			$attributes['aria-invalid'] = 'true';
		}
		switch ( self::kind( $key, $field, $value ) ) {
			case 'select':
				$options = array_map( 'strval', (array) $field['enum'] );
				if ( ! in_array( $value, $options, true ) ) {
					// Kept so saving does not silently replace a value stored through REST.
					array_unshift( $options, $value );
				}
				// The stored value is submitted; the label is what the user reads (translated for ours).
				$labels = Manufacturing_Order_Type::option_labels( $key );
				echo '<select';
				self::print_attributes( $attributes );
				echo '>';
				foreach ( $options as $option ) {
					printf( '<option value="%1$s"%2$s>%3$s</option>', esc_attr( $option ), selected( $value, $option, false ), esc_html( $labels[ $option ] ?? $option ) );
				}
				echo '</select>';
				break;
			case 'checkbox':
				// The hidden 0 makes an unchecked box a submitted false rather than a missing field.
				printf( '<input type="hidden" name="%1$s" value="0" />', esc_attr( $name ) );
				echo '<input type="checkbox" value="1"';
				self::print_attributes( $attributes );
				checked( '1', $value );
				echo ' />';
				break;
			case 'number':
				printf(
					'<input type="number" class="small-text" step="%1$s" value="%2$s"%3$s%4$s',
					'integer' === $field['type'] ? '1' : 'any',
					esc_attr( $value ),
					isset( $field['minimum'] ) && is_numeric( $field['minimum'] ) ? ' min="' . esc_attr( (string) $field['minimum'] ) . '"' : '',
					isset( $field['maximum'] ) && is_numeric( $field['maximum'] ) ? ' max="' . esc_attr( (string) $field['maximum'] ) . '"' : ''
				);
				self::print_attributes( $attributes );
				echo ' />';
				break;
			case 'date':
				printf( '<input type="date" value="%1$s"', esc_attr( $value ) );
				self::print_attributes( $attributes );
				echo ' />';
				break;
			case 'textarea':
				echo '<textarea class="large-text" rows="4"';
				self::print_attributes( $attributes );
				printf( '>%1$s</textarea>', esc_textarea( $value ) );
				break;
			case 'json':
				printf( '<textarea class="large-text code" rows="%1$d" spellcheck="false"', (int) max( 3, min( 12, substr_count( $value, "\n" ) + 2 ) ) );
				self::print_attributes( $attributes );
				printf( '>%1$s</textarea>', esc_textarea( $value ) );
				break;
			default:
				printf( '<input type="text" class="regular-text" value="%1$s"', esc_attr( $value ) );
				self::print_attributes( $attributes );
				echo ' />';
		}
	}

	/**
	 * Prints an input's attributes, each with a space before it, escaped as it is printed.
	 *
	 * @param array<string, string> $attributes Attribute values by name.
	 */
	private static function print_attributes( array $attributes ): void {
		foreach ( $attributes as $attribute => $value ) {
			printf( ' %1$s="%2$s"', esc_attr( $attribute ), esc_attr( $value ) );
		}
	}

	/**
	 * Which input a field gets.
	 *
	 * @param string $key   Field key.
	 * @param array  $field Field schema.
	 * @param string $value Value as the input holds it.
	 * @return string select, checkbox, number, date, textarea, json or text.
	 */
	private static function kind( string $key, array $field, string $value ): string {
		$type = $field['type'];
		if ( 'array' === $type || 'object' === $type ) {
			return 'json';
		}
		if ( ! empty( $field['enum'] ) && is_array( $field['enum'] ) ) {
			return 'select';
		}
		if ( 'boolean' === $type ) {
			return 'checkbox';
		}
		if ( 'integer' === $type || 'number' === $type ) {
			return 'number';
		}
		if ( 'notes' === $key ) {
			return 'textarea';
		}
		$dated = Calendar_Date::FORMAT === ( $field['format'] ?? null )
			|| ( isset( $field['pattern'] ) && is_string( $field['pattern'] ) && false !== strpos( $field['pattern'], '\d{4}-\d{2}-\d{2}' ) );
		// A date input empties a value it cannot parse, so a stored non-date stays in a text input.
		if ( $dated && ( '' === $value || Calendar_Date::is_valid( $value ) ) ) {
			return 'date';
		}
		return 'text';
	}

	/**
	 * A stored value as its input holds it.
	 *
	 * @param mixed $value Stored value.
	 * @param array $field Field schema.
	 */
	private static function input_value( $value, array $field ): string {
		if ( 'array' === $field['type'] || 'object' === $field['type'] ) {
			$json = wp_json_encode( is_array( $value ) ? $value : array(), JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE );
			return false === $json ? '' : $json;
		}
		if ( 'boolean' === $field['type'] ) {
			return $value ? '1' : '0';
		}
		return is_scalar( $value ) ? (string) $value : '';
	}

	/**
	 * The label of a field: ours are named here, a site's field by its schema `title` or its key.
	 *
	 * @param string $key   Field key.
	 * @param array  $field Field schema.
	 */
	private static function label( string $key, array $field ): string {
		$labels = array(
			'source_order_id'     => __( 'Source order ID', 'service-integration' ),
			'source_order_number' => __( 'Source order number', 'service-integration' ),
			'items'               => __( 'Items', 'service-integration' ),
			'due_date'            => __( 'Due date', 'service-integration' ),
			'priority'            => __( 'Priority', 'service-integration' ),
			'notes'               => __( 'Notes', 'service-integration' ),
		);
		if ( isset( $labels[ $key ] ) ) {
			return $labels[ $key ];
		}
		if ( ! empty( $field['title'] ) && is_string( $field['title'] ) ) {
			return $field['title'];
		}
		return ucfirst( str_replace( array( '_', '-' ), ' ', $key ) );
	}

	/**
	 * Saves the fields submitted with the edit form, all of them or none.
	 *
	 * @param int     $post_id Record ID.
	 * @param WP_Post $post    Record.
	 */
	public static function save( $post_id, $post ): void {
		$post_id = (int) $post_id;
		if ( ! isset( $_POST[ self::NONCE_NAME ], $_POST[ self::INPUT ], $_POST['post_ID'] ) ) {
			return; // Not the edit form: REST, Quick Edit, autosave or site code.
		}
		if ( ! wp_verify_nonce( sanitize_key( wp_unslash( $_POST[ self::NONCE_NAME ] ) ), self::NONCE_ACTION ) ) {
			return;
		}
		// save_post also fires for records other code saves while handling this request.
		if ( absint( $_POST['post_ID'] ) !== $post_id || ! $post instanceof WP_Post ) {
			return;
		}
		if ( ( defined( 'DOING_AUTOSAVE' ) && DOING_AUTOSAVE ) || wp_is_post_revision( $post_id ) || wp_is_post_autosave( $post_id ) ) {
			return;
		}
		if ( ! current_user_can( 'edit_post', $post_id ) ) {
			return;
		}
		$submitted = wp_unslash( $_POST[ self::INPUT ] ); // phpcs:ignore WordPress.Security.ValidatedSanitizedInput.InputNotSanitized -- validated against each field's schema below and sanitised by the meta registration on write; a text sanitiser would change the values (newlines, JSON).
		if ( ! is_array( $submitted ) ) {
			return;
		}

		// Which row fields were on the form: one whose every row was removed sends no rows. Only
		// whether a field's key is there is read.
		$listed = isset( $_POST[ Manufacturing_Order_Rows_Input::PRESENT ] ) && is_array( $_POST[ Manufacturing_Order_Rows_Input::PRESENT ] );

		$values = array();
		$errors = array();
		$typed  = array();
		foreach ( Manufacturing_Order_Type::fields() as $key => $field ) {
			if ( Manufacturing_Order_Rows_Input::fits( $field ) ) {
				if ( ! $listed || ! isset( $_POST[ Manufacturing_Order_Rows_Input::PRESENT ][ $key ] ) ) {
					continue;
				}
				$rows          = $submitted[ $key ] ?? null;
				$typed[ $key ] = is_array( $rows ) ? $rows : array();
				$value         = Manufacturing_Order_Rows_Input::parse( $rows );
			} elseif ( ! array_key_exists( $key, $submitted ) || ! is_string( $submitted[ $key ] ) ) {
				continue;
			} else {
				$raw           = str_replace( "\r\n", "\n", $submitted[ $key ] );
				$typed[ $key ] = $raw;
				$value         = self::parse( $raw, $key, $field );
			}
			if ( is_wp_error( $value ) ) {
				$errors[ $key ] = $value->get_error_message();
				continue;
			}
			// Rows are checked as the form shows them first: numbered from 1, by column, translated.
			$row_problem = Manufacturing_Order_Rows_Input::fits( $field ) && is_array( $value ) ? Manufacturing_Order_Rows_Input::problem( $value, $field ) : null;
			if ( null !== $row_problem ) {
				$errors[ $key ] = $row_problem;
				continue;
			}
			if ( null !== $value ) {
				$valid = Manufacturing_Order_Type::validate_value( $value, $field, $key );
				if ( is_wp_error( $valid ) ) {
					$errors[ $key ] = $valid->get_error_message();
					continue;
				}
			}
			$values[ $key ] = $value;
		}

		if ( $errors ) {
			self::$refused_post = $post_id;
			set_transient(
				self::failure_key( $post_id ),
				array(
					'errors' => $errors,
					'values' => $typed,
				),
				self::FAILURE_TTL
			);
			return;
		}
		foreach ( $values as $key => $value ) {
			if ( null === $value ) {
				delete_post_meta( $post_id, $key );
			} else {
				update_post_meta( $post_id, $key, wp_slash( $value ) );
			}
		}
	}

	/**
	 * Turns what an input sent into the value to validate; null removes the stored value
	 * (the field's default applies), as a REST null does.
	 *
	 * @param string $raw   Submitted text, unslashed.
	 * @param string $key   Field key.
	 * @param array  $field Field schema.
	 * @return mixed|null|\WP_Error
	 */
	private static function parse( string $raw, string $key, array $field ) {
		switch ( $field['type'] ) {
			case 'array':
			case 'object':
				if ( '' === trim( $raw ) ) {
					return null;
				}
				$value = json_decode( $raw, true );
				if ( null === $value && JSON_ERROR_NONE !== json_last_error() ) {
					/* translators: 1: field key, 2: JSON parser message. */
					return new \WP_Error( 'invalid_json', sprintf( __( '%1$s is not valid JSON (%2$s).', 'service-integration' ), $key, json_last_error_msg() ) );
				}
				return $value;
			case 'boolean':
				return '1' === $raw;
			case 'integer':
			case 'number':
				return '' === trim( $raw ) ? null : trim( $raw );
			default:
				return $raw;
		}
	}

	/**
	 * Drops core's "updated" message from the redirect when the fields were refused: the
	 * notice says what was saved and what was not.
	 *
	 * @param string $location Redirect URL.
	 * @param int    $post_id  Record ID.
	 * @return string
	 */
	public static function redirect_location( $location, $post_id ) {
		if ( 0 !== self::$refused_post && (int) $post_id === self::$refused_post ) {
			return remove_query_arg( 'message', $location );
		}
		return $location;
	}

	/**
	 * After a refused save, names each refused field with its validation message.
	 */
	public static function render_notice(): void {
		$screen = get_current_screen();
		$post   = get_post();
		if ( ! $screen || 'post' !== $screen->base || Manufacturing_Order_Type::POST_TYPE !== $screen->post_type || ! $post instanceof WP_Post ) {
			return;
		}
		$failure = self::failure( (int) $post->ID );
		if ( ! $failure ) {
			return;
		}
		$fields = Manufacturing_Order_Type::fields();
		echo '<div class="notice notice-error service-integration-manufacturing-order-errors"><p>';
		echo esc_html__( 'The manufacturing order was saved, but none of its details were: correct these fields and update it again.', 'service-integration' );
		echo '</p><ul>';
		foreach ( $failure['errors'] as $key => $message ) {
			printf(
				'<li data-field="%1$s">%2$s</li>',
				esc_attr( $key ),
				sprintf(
					/* translators: 1: field label, 2: field key (as in the REST API), 3: why the value was refused. */
					esc_html__( '%1$s (%2$s): %3$s', 'service-integration' ),
					'<strong>' . esc_html( self::label( (string) $key, $fields[ $key ] ?? array() ) ) . '</strong>',
					'<code>' . esc_html( $key ) . '</code>',
					esc_html( $message )
				)
			);
		}
		echo '</ul></div>';
	}

	/**
	 * The refused save of a record by the current user, read once.
	 *
	 * @param int $post_id Record ID.
	 * @return array{errors: array<string, string>, values: array<string, string|array>}|null
	 */
	private static function failure( int $post_id ): ?array {
		if ( ! array_key_exists( $post_id, self::$failures ) ) {
			$stored = get_transient( self::failure_key( $post_id ) );
			if ( false !== $stored ) {
				delete_transient( self::failure_key( $post_id ) );
			}
			self::$failures[ $post_id ] = is_array( $stored ) && ! empty( $stored['errors'] ) && is_array( $stored['errors'] )
				? array(
					'errors' => $stored['errors'],
					'values' => is_array( $stored['values'] ?? null ) ? $stored['values'] : array(),
				)
				: null;
		}
		return self::$failures[ $post_id ];
	}

	/**
	 * Transient name of a refused save: per user and record, so nobody else sees it.
	 *
	 * @param int $post_id Record ID.
	 */
	private static function failure_key( int $post_id ): string {
		return 'service_integration_mo_refused_' . get_current_user_id() . '_' . $post_id;
	}
}
