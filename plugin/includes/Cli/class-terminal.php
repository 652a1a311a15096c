<?php
/**
 * WP-CLI: what the commands print, and ask before a destructive action.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

use WP_CLI;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Prints the routes' answers in the format asked for (--format, --fields), as WP-CLI's own
 * commands print theirs: with a machine format (json, csv, yaml) stdout holds only the data.
 */
final class Terminal {

	/**
	 * Prints a list through WP-CLI's formatter (--format, --fields); `ids` prints the given key.
	 *
	 * @param array<int, array<string, mixed>> $items    Rows.
	 * @param array<string, mixed>             $assoc    The command's options.
	 * @param string[]                         $defaults Default fields.
	 * @param string                           $id_key   The key `--format=ids` prints.
	 */
	public static function print_items( array $items, array $assoc, array $defaults, string $id_key ): void {
		$format = self::format( $assoc );
		if ( 'ids' === $format ) {
			WP_CLI::line( implode( ' ', array_map( 'strval', array_column( $items, $id_key ) ) ) );
			return;
		}
		$fields = isset( $assoc['fields'] ) ? explode( ',', (string) $assoc['fields'] ) : $defaults;
		$rows   = in_array( $format, array( 'json', 'yaml' ), true ) ? $items : array_map(
			static fn( array $item ): array => array_map( array( self::class, 'cell' ), $item ),
			$items
		);
		self::quiet_yaml( static fn() => WP_CLI\Utils\format_items( $format, $rows, $fields ) );
	}

	/**
	 * Prints one object (a status): as a field/value table, or whole (--format=json|yaml) as
	 * WP-CLI's own `get` commands print one item, so a script gets the object the route answered.
	 *
	 * @param array<string, mixed> $item  The object.
	 * @param array<string, mixed> $assoc The command's options.
	 */
	public static function print_object( array $item, array $assoc ): void {
		$format = self::format( $assoc );
		if ( 'table' !== $format ) {
			self::quiet_yaml( static fn() => WP_CLI::print_value( $item, array( 'format' => $format ) ) );
			return;
		}
		$rows = array();
		foreach ( $item as $field => $value ) {
			$rows[] = array(
				'field' => $field,
				'value' => self::cell( $value ),
			);
		}
		WP_CLI\Utils\format_items( 'table', $rows, array( 'field', 'value' ) );
	}

	/**
	 * Prints a page of a list the route counts (its `total`): `count` prints that total, every
	 * other format the page's items, `ids` their ids.
	 *
	 * @param array<string, mixed> $answer   The route's answer: the items and their total.
	 * @param string               $key      The key of the items in the answer.
	 * @param array<string, mixed> $assoc    The command's options.
	 * @param string[]             $defaults Default fields.
	 */
	public static function print_page( array $answer, string $key, array $assoc, array $defaults ): void {
		if ( 'count' === self::format( $assoc ) ) {
			WP_CLI::line( (string) (int) $answer['total'] );
			return;
		}
		self::print_items( $answer[ $key ], $assoc, $defaults, 'id' );
	}

	/**
	 * Says what an action did, then prints the state it answered; the Success line only above a
	 * table, since a machine format's stdout holds only the data.
	 *
	 * @param string               $success What the action did.
	 * @param array<string, mixed> $item    The state the route answered.
	 * @param array<string, mixed> $assoc   The command's options.
	 */
	public static function print_outcome( string $success, array $item, array $assoc ): void {
		if ( 'table' === self::format( $assoc ) ) {
			WP_CLI::success( $success );
		}
		self::print_object( $item, $assoc );
	}

	/**
	 * Asks before a destructive action; without a terminal to ask on, --yes is required.
	 *
	 * @param string               $question The question.
	 * @param array<string, mixed> $assoc    The command's options (--yes answers it).
	 */
	public static function confirm( string $question, array $assoc ): void {
		if ( empty( $assoc['yes'] ) && ! stream_isatty( STDIN ) ) {
			WP_CLI::error( __( 'This cannot be undone: add --yes to confirm (no terminal to ask on).', 'service-integration' ) );
		}
		WP_CLI::confirm( $question, $assoc );
	}

	/**
	 * The format asked for with --format (table by default).
	 *
	 * @param array<string, mixed> $assoc The command's options.
	 */
	public static function format( array $assoc ): string {
		return (string) ( $assoc['format'] ?? 'table' );
	}

	/**
	 * A value as a table or CSV cell: lists joined, objects as JSON, booleans as true/false, null
	 * empty (WP-CLI's table and CSV writers take every cell as a string).
	 *
	 * @param mixed $value Value.
	 * @return mixed
	 */
	public static function cell( $value ) {
		if ( null === $value ) {
			return '';
		}
		if ( is_bool( $value ) ) {
			return $value ? 'true' : 'false';
		}
		if ( is_array( $value ) ) {
			return array_is_list( $value ) && ! array_filter( $value, 'is_array' ) ? implode( ',', $value ) : wp_json_encode( $value );
		}
		return $value;
	}

	/**
	 * Prints through WP-CLI's YAML writer without PHP's deprecation notices. That writer (Spyc,
	 * bundled with WP-CLI) runs trim() on every value before it writes a null as `null`, which
	 * PHP 8.1+ reports as "Passing null … is deprecated" on a site with WP_DEBUG: noise in the
	 * output, about WP-CLI's code. Any other notice still shows.
	 *
	 * @param callable $output Prints.
	 */
	private static function quiet_yaml( callable $output ): void {
		$level = error_reporting(); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.prevent_path_disclosure_error_reporting,WordPress.PHP.DiscouragedPHPFunctions.runtime_configuration_error_reporting -- read to restore it
		error_reporting( $level & ~E_DEPRECATED ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.prevent_path_disclosure_error_reporting,WordPress.PHP.DiscouragedPHPFunctions.runtime_configuration_error_reporting -- only around WP-CLI's YAML writer, see above
		try {
			$output();
		} finally {
			error_reporting( $level ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.prevent_path_disclosure_error_reporting,WordPress.PHP.DiscouragedPHPFunctions.runtime_configuration_error_reporting -- restores the level read above
		}
	}
}
