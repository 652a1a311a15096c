<?php
/**
 * The few WordPress functions the stores and the inbound processor call, for the unit tests:
 * actions, filters and cron events in memory, translations as given, JSON as PHP encodes it.
 *
 * @package ServiceIntegration
 */

/**
 * Actions (and filters), actions done and cron events of the current test: each test that
 * reads them starts from an empty array.
 */
$GLOBALS['service_integration_test_wp'] = array();

/**
 * The text as given.
 *
 * @param string $text   Text.
 * @param string $domain Text domain.
 */
function __( $text, $domain = 'default' ) { // phpcs:ignore Generic.CodeAnalysis.UnusedFunctionParameter.FoundAfterLastUsed,WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- WordPress's signature, kept whole; a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	return $text;
}

/**
 * The singular or the plural as given, as English chooses.
 *
 * @param string $single Singular.
 * @param string $plural Plural.
 * @param int    $number Count.
 * @param string $domain Text domain.
 */
function _n( $single, $plural, $number, $domain = 'default' ) { // phpcs:ignore Generic.CodeAnalysis.UnusedFunctionParameter.FoundAfterLastUsed,WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- WordPress's signature, kept whole; a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	return 1 === (int) $number ? $single : $plural;
}

/**
 * A random string of letters and digits, as core's without special characters.
 *
 * @param int  $length        Length.
 * @param bool $special_chars Whether to use special characters (never, here).
 */
function wp_generate_password( $length = 12, $special_chars = true ) { // phpcs:ignore Generic.CodeAnalysis.UnusedFunctionParameter.FoundAfterLastUsed -- WordPress's signature, kept whole
	return substr( bin2hex( random_bytes( $length ) ), 0, $length );
}

/**
 * Whether the value is a WP_Error.
 *
 * @param mixed $thing Value.
 */
function is_wp_error( $thing ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	return $thing instanceof WP_Error;
}

/**
 * JSON as WordPress encodes it (false when PHP cannot).
 *
 * @param mixed $value Value.
 * @param int   $flags json_encode() flags.
 */
function wp_json_encode( $value, $flags = 0 ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	return json_encode( $value, $flags ); // phpcs:ignore WordPress.WP.AlternativeFunctions.json_encode_json_encode -- this is the stand-in for wp_json_encode() itself
}

/**
 * Runs the callbacks added for the hook.
 *
 * @param string $hook    Hook.
 * @param mixed  ...$args Arguments.
 */
function do_action( $hook, ...$args ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	$GLOBALS['service_integration_test_wp']['done'][] = array( $hook, $args );
	foreach ( $GLOBALS['service_integration_test_wp']['actions'][ $hook ] ?? array() as $callback ) {
		$callback( ...$args );
	}
}

/**
 * Adds a callback to a hook of this test.
 *
 * @param string   $hook     Hook.
 * @param callable $callback Callback.
 */
function add_action( $hook, $callback ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	$GLOBALS['service_integration_test_wp']['actions'][ $hook ][] = $callback;
	return true;
}

/**
 * The value as filtered by this test's filters (added with add_action under the filter's name).
 *
 * @param string $hook    Filter.
 * @param mixed  $value   Value.
 * @param mixed  ...$args Arguments.
 */
function apply_filters( $hook, $value, ...$args ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	foreach ( $GLOBALS['service_integration_test_wp']['actions'][ $hook ] ?? array() as $callback ) {
		$value = $callback( $value, ...$args );
	}
	return $value;
}

/**
 * The next run of a cron hook in this test's cron array.
 *
 * @param string $hook Hook.
 */
function wp_next_scheduled( $hook ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	foreach ( _get_cron_array() as $at => $hooks ) {
		if ( isset( $hooks[ $hook ] ) ) {
			return $at;
		}
	}
	return false;
}

/**
 * Schedules a single run of a cron hook in this test's cron array.
 *
 * @param int    $at   Unix time.
 * @param string $hook Hook.
 */
function wp_schedule_single_event( $at, $hook ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	return service_integration_test_add_cron( $at, $hook, false );
}

/**
 * Removes a run of a cron hook from this test's cron array.
 *
 * @param int    $at   Unix time.
 * @param string $hook Hook.
 */
function wp_unschedule_event( $at, $hook ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	unset( $GLOBALS['service_integration_test_wp']['crons'][ $at ][ $hook ] );
	if ( array() === ( $GLOBALS['service_integration_test_wp']['crons'][ $at ] ?? null ) ) {
		unset( $GLOBALS['service_integration_test_wp']['crons'][ $at ] );
	}
	return true;
}

/**
 * The current user of this test (0 when none was set).
 */
function get_current_user_id() { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	return $GLOBALS['service_integration_test_wp']['user'] ?? 0;
}

/**
 * A response for a result (a response stays as it is, a value becomes one with status 200).
 *
 * @param mixed $response Result.
 */
function rest_ensure_response( $response ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	return $response instanceof WP_REST_Response ? $response : new WP_REST_Response( $response );
}

/**
 * An error as the response core answers it with.
 *
 * @param WP_Error $error Error.
 */
function rest_convert_error_to_response( $error ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	$data = $error->get_error_data();
	return new WP_REST_Response(
		array(
			'code'    => $error->get_error_code(),
			'message' => $error->get_error_message(),
			'data'    => $data,
		),
		(int) ( $data['status'] ?? 500 )
	);
}

/**
 * Core's serialization of option values: arrays and objects serialized, scalars as they are.
 *
 * @param mixed $data Value.
 */
function maybe_serialize( $data ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	return is_array( $data ) || is_object( $data ) ? serialize( $data ) : $data; // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.serialize_serialize -- core's own format.
}

/**
 * The value of a stored option.
 *
 * @param mixed $data Stored value.
 */
function maybe_unserialize( $data ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	if ( is_string( $data ) && preg_match( '/^(a|O|s|i|b|d):/', $data ) ) {
		return unserialize( $data ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.serialize_unserialize -- core's own format.
	}
	return $data;
}

/**
 * The autoloaded options: those the test put under 'alloptions'.
 *
 * @return array<string, string>
 */
function wp_load_alloptions() { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	return $GLOBALS['service_integration_test_wp']['alloptions'] ?? array();
}

/**
 * The object cache, as the test's 'cache' entries ("group/key" => value).
 *
 * @param string $key   Key.
 * @param mixed  $value Value.
 * @param string $group Group.
 */
function wp_cache_set( $key, $value, $group = '' ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	$GLOBALS['service_integration_test_wp']['cache'][ $group . '/' . $key ] = $value;
	return true;
}

/**
 * Drops a cached value.
 *
 * @param string $key   Key.
 * @param string $group Group.
 */
function wp_cache_delete( $key, $group = '' ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	unset( $GLOBALS['service_integration_test_wp']['cache'][ $group . '/' . $key ] );
	return true;
}

/**
 * An ISO 8601 date as a UTC timestamp (UTC when it gives no offset, as WordPress's runs in UTC),
 * false when it is none.
 *
 * @param string $date Date.
 * @return int|false
 */
function rest_parse_date( $date ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	$parsed = date_create( (string) $date, new DateTimeZone( 'UTC' ) );
	return $parsed ? $parsed->getTimestamp() : false;
}

/**
 * The text without trailing slashes.
 *
 * @param string $value Text.
 */
function untrailingslashit( $value ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	return rtrim( $value, '/\\' );
}

/**
 * The cron array of this test, as core keeps it: time => hook => key => {schedule, args}.
 */
function _get_cron_array() { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	return $GLOBALS['service_integration_test_wp']['crons'] ?? array();
}

/**
 * Schedules a recurring event in this test's cron array.
 *
 * @param int    $at         Unix time of the first run.
 * @param string $recurrence Schedule name.
 * @param string $hook       Hook.
 */
function wp_schedule_event( $at, $recurrence, $hook ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	return service_integration_test_add_cron( $at, $hook, $recurrence );
}

/**
 * Adds an event without arguments to this test's cron array, as core keys it.
 *
 * @param int          $at         Unix time.
 * @param string       $hook       Hook.
 * @param string|false $recurrence Schedule name, or false for a single run.
 */
function service_integration_test_add_cron( $at, $hook, $recurrence ) {
	$GLOBALS['service_integration_test_wp']['crons'][ $at ][ $hook ][ md5( serialize( array() ) ) ] = array( // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.serialize_serialize -- core's own key.
		'schedule' => $recurrence,
		'args'     => array(),
	);
	ksort( $GLOBALS['service_integration_test_wp']['crons'] );
	return true;
}

/**
 * Removes every event of a hook from this test's cron array.
 *
 * @param string $hook Hook.
 */
function wp_clear_scheduled_hook( $hook ) { // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedFunctionFound -- a stand-in for WordPress's function of this name, loaded only by PHPUnit's bootstrap
	foreach ( $GLOBALS['service_integration_test_wp']['crons'] ?? array() as $at => $hooks ) {
		unset( $GLOBALS['service_integration_test_wp']['crons'][ $at ][ $hook ] );
		if ( array() === $GLOBALS['service_integration_test_wp']['crons'][ $at ] ) {
			unset( $GLOBALS['service_integration_test_wp']['crons'][ $at ] );
		}
	}
	return 0;
}
