<?php
/**
 * Loads the plugin's classes through its own autoloader, without WordPress: only classes that
 * need none of it are tested here (the rest is covered by the end-to-end suite).
 *
 * @package ServiceIntegration
 */

// The plugin's files stop when loaded outside WordPress; these tests stand in for it.
define( 'ABSPATH', __DIR__ . '/' );

require dirname( __DIR__, 2 ) . '/plugin/includes/autoload.php';

// In-memory implementations of the plugin's ports, for the units that read through them.
require __DIR__ . '/support/class-in-memory-order.php';
