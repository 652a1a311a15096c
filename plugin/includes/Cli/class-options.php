<?php
/**
 * WP-CLI: reads the commands' options as the routes take them.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

use WP_CLI;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Options (--name=value, as WP-CLI hands them over) to route parameters: a value that is not what
 * the option takes ends the command naming the option, before any call.
 */
final class Options {

	/** A whole number: a count, seconds, a page. */
	const WHOLE_NUMBER = '/^-?\d{1,15}$/D';

	/** A number that may have decimals: hours. */
	const NUMBER = '/^-?\d{1,15}(\.\d+)?$/D';

	/**
	 * The text options given, under the parameter names the route takes.
	 *
	 * @param array<string, mixed>  $assoc The command's options.
	 * @param array<string, string> $names Parameter name by option name (without --).
	 * @return array<string, string>
	 */
	public static function texts( array $assoc, array $names ): array {
		$params = array();
		foreach ( $names as $option => $param ) {
			if ( isset( $assoc[ $option ] ) ) {
				$params[ $param ] = (string) $assoc[ $option ];
			}
		}
		return $params;
	}

	/**
	 * The page options of a list (--page, --per-page) given, as the route takes them.
	 *
	 * @param array<string, mixed> $assoc The command's options.
	 * @return array<string, int>
	 */
	public static function paging( array $assoc ): array {
		$params = array();
		foreach ( array( 'page', 'per-page' ) as $option ) {
			$number = self::whole_number( $assoc, $option );
			if ( null !== $number ) {
				$params[ str_replace( '-', '_', $option ) ] = $number;
			}
		}
		return $params;
	}

	/**
	 * A whole-number option (a count, seconds, a page), or null when not given; a value that is
	 * not one ends the command naming the option, instead of being read as 0.
	 *
	 * @param array<string, mixed> $assoc  The command's options.
	 * @param string               $option The option's name, without --.
	 */
	public static function whole_number( array $assoc, string $option ): ?int {
		$value = self::numeric( $assoc, $option, self::WHOLE_NUMBER, __( 'a whole number', 'service-integration' ) );
		return null === $value ? null : (int) $value;
	}

	/**
	 * A number option that may have decimals (hours), or null when not given; anything else ends
	 * the command naming the option.
	 *
	 * @param array<string, mixed> $assoc  The command's options.
	 * @param string               $option The option's name, without --.
	 */
	public static function number( array $assoc, string $option ): ?float {
		$value = self::numeric( $assoc, $option, self::NUMBER, __( 'a number', 'service-integration' ) );
		return null === $value ? null : (float) $value;
	}

	/**
	 * A comma-separated option as a list.
	 *
	 * @param string $value Value.
	 * @return string[]
	 */
	public static function list_of( string $value ): array {
		return array_values( array_filter( array_map( 'trim', explode( ',', $value ) ), 'strlen' ) );
	}

	/**
	 * A number option as given, or null when not given; ends the command when it does not match.
	 *
	 * @param array<string, mixed> $assoc    The command's options.
	 * @param string               $option   The option's name, without --.
	 * @param string               $pattern  What the option takes.
	 * @param string               $expected What it must be, in words.
	 */
	private static function numeric( array $assoc, string $option, string $pattern, string $expected ): ?string {
		if ( ! isset( $assoc[ $option ] ) ) {
			return null;
		}
		$value = $assoc[ $option ];
		if ( is_string( $value ) && 1 === preg_match( $pattern, trim( $value ) ) ) {
			return $value;
		}
		WP_CLI::error(
			sprintf(
				/* translators: 1: the option, e.g. --grace-hours, 2: what it must be (a number, a whole number), 3: what was given. */
				__( '%1$s must be %2$s, not "%3$s".', 'service-integration' ),
				'--' . $option,
				$expected,
				is_string( $value ) ? $value : ''
			)
		);
		return null; // WP_CLI::error() exits; PHP cannot tell.
	}
}
