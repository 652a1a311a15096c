<?php
/**
 * Removes what the plugin created. Runs only on "Delete" in wp-admin, never on deactivation.
 * Service accounts are kept as users (their records stay attributed) but lose the role
 * and every application password, so nothing can sign in with them any more.
 *
 * @package ServiceIntegration
 */

if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
	exit;
}

// Only the plugin's role goes; roles someone else gave the user are theirs to remove.
foreach ( get_users( array( 'role' => 'service_integration' ) ) as $service_integration_user ) {
	WP_Application_Passwords::delete_all_application_passwords( $service_integration_user->ID );
	$service_integration_user->remove_role( 'service_integration' );
}
remove_role( 'service_integration' );

$service_integration_admin = get_role( 'administrator' );
if ( $service_integration_admin ) {
	foreach ( array_keys( $service_integration_admin->capabilities ) as $service_integration_cap ) {
		if ( str_contains( $service_integration_cap, 'commande_fabrication' ) ) {
			$service_integration_admin->remove_cap( $service_integration_cap );
		}
	}
}

global $wpdb;
$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $wpdb->prefix . 'si_outbox' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery,WordPress.DB.DirectDatabaseQuery.NoCaching,WordPress.DB.DirectDatabaseQuery.SchemaChange -- uninstall drops the plugin's own table; no API does, nothing to cache.
wp_clear_scheduled_hook( 'service_integration_outbox_flush' );
$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $wpdb->prefix . 'si_inbound_events' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery,WordPress.DB.DirectDatabaseQuery.NoCaching,WordPress.DB.DirectDatabaseQuery.SchemaChange -- uninstall drops the plugin's own table; no API does, nothing to cache.
wp_clear_scheduled_hook( 'service_integration_inbound_process' );
wp_clear_scheduled_hook( 'service_integration_inbound_sweep' );
delete_option( 'service_integration_inbound_db' );
$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $wpdb->prefix . 'si_idempotency_keys' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery,WordPress.DB.DirectDatabaseQuery.NoCaching,WordPress.DB.DirectDatabaseQuery.SchemaChange -- uninstall drops the plugin's own table; no API does, nothing to cache.
delete_option( 'service_integration_idempotency_db' );
delete_option( 'service_integration_unique_source_order_id' );
// Locks of source orders left by a request that died holding one.
$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name LIKE %s", $wpdb->esc_like( 'service_integration_source_order_lock_' ) . '%' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery,WordPress.DB.DirectDatabaseQuery.NoCaching -- options by prefix: no API deletes them by pattern; uninstall, nothing to cache.
$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $wpdb->prefix . 'si_paid_orders' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery,WordPress.DB.DirectDatabaseQuery.NoCaching,WordPress.DB.DirectDatabaseQuery.SchemaChange -- uninstall drops the plugin's own table; no API does, nothing to cache.
delete_option( 'service_integration_paid_index_db' );
delete_option( 'service_integration_paid_index_state' );
// The orders' recorded paid moments (order meta) stay: they are part of each order's history.
delete_option( 'service_integration_paid_moments_since' );
if ( function_exists( 'as_unschedule_all_actions' ) ) {
	as_unschedule_all_actions( 'service_integration_paid_index_walk', array(), 'service-integration' );
	as_unschedule_all_actions( 'service_integration_paid_index_check', array(), 'service-integration' );
}
wp_clear_scheduled_hook( 'service_integration_paid_index_reconcile' );

delete_option( 'service_integration_version' );
delete_option( 'service_integration_outbox_db' );
delete_option( 'service_integration_disabled_endpoints' );
delete_option( 'service_integration_deleted_endpoints' );
delete_transient( 'service_integration_hand_over_backoff' );
delete_option( 'service_integration_hand_over_lock' );
delete_option( 'service_integration_upgrade_lock' );
delete_option( 'service_integration_outbox_write_failures' );
delete_option( 'service_integration_widening' );
delete_option( 'service_integration_account_login' );
