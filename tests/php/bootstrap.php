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
