<?php
/**
 * REST controller of manufacturing orders: core's posts controller, minus public reads.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Manufacturing;

use WP_Post;
use WP_REST_Posts_Controller;
use WP_REST_Request;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Core lets anyone read a published post of any show_in_rest type, even one registered
 * public => false. Here reading needs the type's read capability, and only authors
 * read their own records unless they may edit others' (administrators).
 * Core also writes the post before it validates its meta, so a bad field would leave a
 * half-written record: custom fields are validated here before anything is written.
 * Creation honours the Idempotency-Key header, so an automation's retry never makes a
 * second record. A record needs a title, and its status is one a manufacturing order can
 * have (Manufacturing_Order_Type::STATUSES), not any status another plugin registers.
 */
final class Manufacturing_Orders_Controller extends WP_REST_Posts_Controller {

	/**
	 * Constructor (Manufacturing_Order_Type sets it as the type's controller).
	 *
	 * @param string                  $post_type          The post type.
	 * @param Idempotent_Request      $idempotent_request Creation once per Idempotency-Key.
	 * @param Source_Order_Uniqueness $source_orders      One live record per source order, when on.
	 */
	public function __construct( string $post_type, private Idempotent_Request $idempotent_request, private Source_Order_Uniqueness $source_orders ) {
		parent::__construct( $post_type );
	}

	/**
	 * Creates a record once its custom fields are valid: once per Idempotency-Key
	 * (Idempotent_Request), and, when source orders are unique, only for a source order
	 * without a live record (Source_Order_Uniqueness).
	 *
	 * @param WP_REST_Request $request Request.
	 * @return \WP_REST_Response|\WP_Error
	 */
	public function create_item( $request ) {
		return $this->idempotent_request->run(
			$request,
			'create:' . $this->post_type,
			function ( WP_REST_Request $request ) {
				$valid = $this->validate_fields( $request );
				if ( ! is_wp_error( $valid ) ) {
					$valid = $this->validate_title( $request, true );
				}
				if ( is_wp_error( $valid ) ) {
					return $valid;
				}
				return $this->source_orders->guard( $request, 0, fn( WP_REST_Request $request ) => parent::create_item( $request ) );
			}
		);
	}

	/**
	 * Updates a record once its custom fields are valid (and, when source orders are unique,
	 * unless another live record has the source order it is given).
	 *
	 * @param WP_REST_Request $request Request.
	 * @return \WP_REST_Response|\WP_Error
	 */
	public function update_item( $request ) {
		$valid = $this->validate_fields( $request );
		if ( ! is_wp_error( $valid ) ) {
			$valid = $this->validate_title( $request, false );
		}
		if ( is_wp_error( $valid ) ) {
			return $valid;
		}
		return $this->source_orders->guard( $request, (int) $request['id'], fn( WP_REST_Request $request ) => parent::update_item( $request ) );
	}

	/**
	 * Core's schema, with the statuses a manufacturing order can have: core's enum lists every
	 * registered status (WooCommerce's wc-refunded included).
	 *
	 * @return array<string, mixed>
	 */
	public function get_item_schema() {
		if ( ! $this->schema ) {
			parent::get_item_schema();
			$this->schema['properties']['status']['enum'] = Manufacturing_Order_Type::STATUSES;
		}
		return $this->add_additional_fields_schema( $this->schema );
	}

	/**
	 * Refuses a record without a title (missing, empty or only spaces when created, emptied
	 * when updated) and one whose title does not fit the database column.
	 *
	 * @param WP_REST_Request $request  Request.
	 * @param bool            $creating Whether the request creates the record.
	 * @return true|\WP_Error
	 */
	private function validate_title( $request, bool $creating ) {
		if ( ! $creating && ! $request->has_param( 'title' ) ) {
			return true;
		}
		$title = $request->get_param( 'title' );
		if ( ! Manufacturing_Order_Type::has_title( $title ) ) {
			$problem = __( 'A manufacturing order needs a title.', 'service-integration' );
		} elseif ( ! Manufacturing_Order_Type::title_fits( $title ) ) {
			$problem = sprintf(
				/* translators: %s: the most bytes a title may have, formatted (65,535). */
				__( 'title is too long: a manufacturing order\'s title holds at most %s bytes of UTF-8 text.', 'service-integration' ),
				number_format_i18n( Manufacturing_Order_Type::TITLE_MAX_BYTES )
			);
		} else {
			return true;
		}
		return new \WP_Error(
			'rest_invalid_param',
			/* translators: %s: the parameter's name. */
			sprintf( __( 'Invalid parameter(s): %s', 'service-integration' ), 'title' ),
			array(
				'status' => 400,
				'params' => array( 'title' => $problem ),
			)
		);
	}

	/**
	 * Validates every known custom field of the request against its schema.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return true|\WP_Error
	 */
	private function validate_fields( $request ) {
		$meta = $request->get_param( 'meta' );
		if ( ! is_array( $meta ) ) {
			return true;
		}
		$fields = Manufacturing_Order_Type::fields();
		foreach ( $meta as $key => $value ) {
			if ( ! isset( $fields[ $key ] ) ) {
				continue;
			}
			$valid = Manufacturing_Order_Type::validate_value( $value, $fields[ $key ], 'meta.' . $key );
			if ( is_wp_error( $valid ) ) {
				$valid->add_data( array( 'status' => 400 ) );
				return $valid;
			}
		}
		return true;
	}

	/**
	 * Listing needs the type's read capability.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return true|\WP_Error
	 */
	public function get_items_permissions_check( $request ) {
		$type = get_post_type_object( $this->post_type );
		if ( ! current_user_can( $type->cap->read ) ) {
			return new \WP_Error( 'rest_forbidden', __( 'Sorry, you are not allowed to do that.', 'service-integration' ), array( 'status' => rest_authorization_required_code() ) );
		}
		return parent::get_items_permissions_check( $request );
	}

	/**
	 * Lists only the current user's records unless they may edit others', so totals match.
	 *
	 * @param array           $prepared_args Query arguments.
	 * @param WP_REST_Request $request       Request.
	 * @return array
	 */
	protected function prepare_items_query( $prepared_args = array(), $request = null ) {
		$args = parent::prepare_items_query( $prepared_args, $request );
		$type = get_post_type_object( $this->post_type );
		if ( ! current_user_can( $type->cap->edit_others_posts ) ) {
			$args['author__in'] = array( get_current_user_id() );
			unset( $args['author__not_in'] );
		}
		return $args;
	}

	/**
	 * Reading one record: the read_post meta capability, and ownership for non-editors.
	 *
	 * @param WP_Post $post Post.
	 */
	public function check_read_permission( $post ) {
		if ( ! current_user_can( 'read_post', $post->ID ) ) {
			return false;
		}
		$type = get_post_type_object( $this->post_type );
		if ( get_current_user_id() !== (int) $post->post_author && ! current_user_can( $type->cap->edit_others_posts ) ) {
			return false;
		}
		return parent::check_read_permission( $post );
	}
}
