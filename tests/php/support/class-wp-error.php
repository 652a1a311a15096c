<?php
/**
 * WordPress's error object, as much of it as the plugin's units read.
 *
 * @package ServiceIntegration
 */

// phpcs:disable WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedClassFound -- a stand-in for WordPress's class of this name, loaded only by PHPUnit's bootstrap
/**
 * A code, a message and data, like core's WP_Error with one error.
 */
class WP_Error {
	// phpcs:enable

	/**
	 * Constructor.
	 *
	 * @param string $code    Code.
	 * @param string $message Message.
	 * @param mixed  $data    Data.
	 */
	public function __construct( private string $code = '', private string $message = '', private $data = '' ) {
	}

	/** The code. */
	public function get_error_code() {
		return $this->code;
	}

	/** The message. */
	public function get_error_message() {
		return $this->message;
	}

	/** The data. */
	public function get_error_data() {
		return $this->data;
	}
}
