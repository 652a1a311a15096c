<?php
/**
 * WordPress's database class, as the type the stores are given.
 *
 * @package ServiceIntegration
 */

// phpcs:disable PEAR.NamingConventions.ValidClassName.StartWithCapital,WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedClassFound -- WordPress's class is named wpdb; a stand-in for WordPress's class of this name, loaded only by PHPUnit's bootstrap
/**
 * The members of core's wpdb that the stores use; Recording_Wpdb gives them behaviour.
 */
class wpdb {
	// phpcs:enable

	/**
	 * Table prefix.
	 *
	 * @var string
	 */
	public $prefix = 'wp_';

	/**
	 * The posts table.
	 *
	 * @var string
	 */
	public $posts = 'wp_posts';

	/**
	 * The posts' meta table.
	 *
	 * @var string
	 */
	public $postmeta = 'wp_postmeta';

	/**
	 * The options table.
	 *
	 * @var string
	 */
	public $options = 'wp_options';

	/**
	 * The last query's error ('' when it succeeded).
	 *
	 * @var string
	 */
	public $last_error = '';

	/**
	 * The id the last INSERT created.
	 *
	 * @var int
	 */
	public $insert_id = 0;
}
