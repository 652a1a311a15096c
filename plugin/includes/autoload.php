<?php
/**
 * Maps ServiceIntegration\Sub\Class_Name to includes/Sub/class-class-name.php
 * (WordPress file naming inside namespace folders).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

spl_autoload_register(
	static function ( string $class_name ): void {
		$prefix = __NAMESPACE__ . '\\';
		if ( 0 !== strpos( $class_name, $prefix ) ) {
			return;
		}
		$parts = explode( '\\', substr( $class_name, strlen( $prefix ) ) );
		$class = array_pop( $parts );
		$file  = 'class-' . strtolower( str_replace( '_', '-', $class ) ) . '.php';
		$path  = __DIR__ . '/' . ( $parts ? implode( '/', $parts ) . '/' : '' ) . $file;
		if ( is_readable( $path ) ) {
			require_once $path;
		}
	}
);
