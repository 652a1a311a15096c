<?php
/**
 * WordPress's database class, as the type the stores are given.
 *
 * @package ServiceIntegration
 */

/**
 * The members of core's wpdb that the stores use; Recording_Wpdb gives them behaviour.
 */
class wpdb {

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
