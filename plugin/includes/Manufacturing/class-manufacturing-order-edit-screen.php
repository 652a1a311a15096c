<?php
/**
 * The edit screen of a manufacturing order: its publish box and its messages.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Manufacturing;

use WP_Post;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Nobody may read a manufacturing order publicly, so the publish box offers no
 * visibility (public, password, sticky) and a password is never stored; the messages
 * after saving name the type and link to no public page.
 */
final class Manufacturing_Order_Edit_Screen {

	/**
	 * Registers hooks.
	 */
	public static function register(): void {
		add_action( 'admin_head-post.php', array( self::class, 'hide_visibility' ) );
		add_action( 'admin_head-post-new.php', array( self::class, 'hide_visibility' ) );
		add_action( 'admin_head-edit.php', array( self::class, 'hide_quick_edit_password' ) );
		add_filter( 'wp_insert_post_data', array( self::class, 'drop_password' ), 10, 2 );
		add_filter( 'wp_insert_post_data', array( self::class, 'keep_status' ) );
		add_action( 'admin_footer-post.php', array( self::class, 'require_title' ) );
		add_action( 'admin_footer-post-new.php', array( self::class, 'require_title' ) );
		add_filter( 'post_updated_messages', array( self::class, 'updated_messages' ) );
		add_filter( 'bulk_post_updated_messages', array( self::class, 'bulk_updated_messages' ), 10, 2 );
	}

	/**
	 * Hides the publish box's Visibility control on this type's edit screens. Core prints
	 * it for every type that is not an attachment and has no filter to leave it out, so a
	 * style scoped to these screens is the way to remove it; drop_password() makes sure a
	 * password cannot be set by a crafted request either.
	 */
	public static function hide_visibility(): void {
		$screen = get_current_screen();
		if ( ! $screen || Manufacturing_Order_Type::POST_TYPE !== $screen->post_type ) {
			return;
		}
		echo "<style id=\"service-integration-manufacturing-order-visibility\">#post-body .misc-pub-visibility, #visibility { display: none; }</style>\n";
	}

	/**
	 * Hides Quick Edit's Password input (and its "-OR-") on the list screen, for the same
	 * reason: the password would be dropped on save.
	 */
	public static function hide_quick_edit_password(): void {
		$screen = get_current_screen();
		if ( ! $screen || Manufacturing_Order_Type::POST_TYPE !== $screen->post_type ) {
			return;
		}
		echo "<style id=\"service-integration-manufacturing-order-quick-edit\">.inline-edit-row label:has(.inline-edit-password-input), .inline-edit-row .inline-edit-or { display: none; }</style>\n";
	}

	/**
	 * Never stores a password on a manufacturing order: the type has no public page for it to protect.
	 *
	 * @param array $data    Slashed, sanitised post data about to be written.
	 * @param array $postarr Slashed submitted data.
	 * @return array
	 */
	public static function drop_password( $data, $postarr ) {
		unset( $postarr );
		if ( is_array( $data ) && isset( $data['post_type'] ) && Manufacturing_Order_Type::POST_TYPE === $data['post_type'] ) {
			$data['post_password'] = '';
		}
		return $data;
	}

	/**
	 * Keeps a manufacturing order in a status it can have (Manufacturing_Order_Type::STATUSES,
	 * the Trash and core's internal ones): another status (a crafted request, another plugin's)
	 * makes it a draft, and so does a blank title, which the REST route refuses and the edit
	 * screen asks for.
	 *
	 * @param array $data Slashed, sanitised post data about to be written.
	 * @return array
	 */
	public static function keep_status( $data ) {
		if ( ! is_array( $data ) || ! isset( $data['post_type'], $data['post_status'] ) || Manufacturing_Order_Type::POST_TYPE !== $data['post_type'] ) {
			return $data;
		}
		$status = (string) $data['post_status'];
		if ( in_array( $status, array( 'draft', 'auto-draft', 'trash', 'inherit' ), true ) ) {
			return $data;
		}
		if ( ! in_array( $status, Manufacturing_Order_Type::STATUSES, true ) || ! Manufacturing_Order_Type::has_title( wp_unslash( (string) ( $data['post_title'] ?? '' ) ) ) ) {
			$data['post_status'] = 'draft';
		}
		return $data;
	}

	/**
	 * Makes the edit screen's title field required, so the browser asks for a title before
	 * the form is sent.
	 */
	public static function require_title(): void {
		$screen = get_current_screen();
		if ( ! $screen || Manufacturing_Order_Type::POST_TYPE !== $screen->post_type ) {
			return;
		}
		echo "<script id=\"service-integration-manufacturing-order-title\">( function () { var title = document.getElementById( 'title' ); if ( title ) { title.required = true; } } )();</script>\n";
	}

	/**
	 * Messages after saving from the edit screen (core's "Post updated. View post" otherwise).
	 *
	 * @param array<string, array<int, string|false>> $messages Post type => message number => text.
	 * @return array<string, array<int, string|false>>
	 */
	public static function updated_messages( $messages ) {
		$post   = get_post();
		$labels = Manufacturing_Order_Type::labels();
		$date   = $post instanceof WP_Post
			? date_i18n( __( 'M j, Y @ H:i', 'service-integration' ), strtotime( $post->post_date ) )
			: '';

		$messages[ Manufacturing_Order_Type::POST_TYPE ] = array(
			0  => '',
			1  => $labels['item_updated'],
			2  => __( 'Custom field updated.', 'service-integration' ),
			3  => __( 'Custom field deleted.', 'service-integration' ),
			4  => $labels['item_updated'],
			5  => false,
			6  => $labels['item_published'],
			7  => __( 'Manufacturing order saved.', 'service-integration' ),
			8  => __( 'Manufacturing order submitted.', 'service-integration' ),
			/* translators: %s: date and time the manufacturing order is scheduled for. */
			9  => sprintf( __( 'Manufacturing order scheduled for: %s.', 'service-integration' ), '<strong>' . esc_html( $date ) . '</strong>' ),
			10 => __( 'Manufacturing order draft updated.', 'service-integration' ),
		);
		return $messages;
	}

	/**
	 * Messages after a bulk action on the list screen.
	 *
	 * @param array<string, array<string, string>> $messages Post type => message key => text.
	 * @param array<string, int>                   $counts   Message key => number of records.
	 * @return array<string, array<string, string>>
	 */
	public static function bulk_updated_messages( $messages, $counts ) {
		$messages[ Manufacturing_Order_Type::POST_TYPE ] = array(
			/* translators: %s: number of manufacturing orders. */
			'updated'   => _n( '%s manufacturing order updated.', '%s manufacturing orders updated.', (int) ( $counts['updated'] ?? 0 ), 'service-integration' ),
			/* translators: %s: number of manufacturing orders. */
			'locked'    => _n( '%s manufacturing order not updated, somebody is editing it.', '%s manufacturing orders not updated, somebody is editing them.', (int) ( $counts['locked'] ?? 0 ), 'service-integration' ),
			/* translators: %s: number of manufacturing orders. */
			'deleted'   => _n( '%s manufacturing order permanently deleted.', '%s manufacturing orders permanently deleted.', (int) ( $counts['deleted'] ?? 0 ), 'service-integration' ),
			/* translators: %s: number of manufacturing orders. */
			'trashed'   => _n( '%s manufacturing order moved to the Trash.', '%s manufacturing orders moved to the Trash.', (int) ( $counts['trashed'] ?? 0 ), 'service-integration' ),
			/* translators: %s: number of manufacturing orders. */
			'untrashed' => _n( '%s manufacturing order restored from the Trash.', '%s manufacturing orders restored from the Trash.', (int) ( $counts['untrashed'] ?? 0 ), 'service-integration' ),
		);
		return $messages;
	}
}
