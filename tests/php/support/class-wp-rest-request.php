<?php
/**
 * WordPress's REST request, as much of it as Idempotent_Request reads.
 *
 * @package ServiceIntegration
 */

// phpcs:disable WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedClassFound -- a stand-in for WordPress's class of this name, loaded only by PHPUnit's bootstrap
/**
 * A request: method, headers (names normalised as core does), query and JSON parameters.
 */
class WP_REST_Request {
	// phpcs:enable

	/**
	 * Headers by normalised name.
	 *
	 * @var array<string, string>
	 */
	private array $headers = array();

	/**
	 * Constructor.
	 *
	 * @param string $method  Method.
	 * @param array  $json    JSON body parameters.
	 * @param array  $query   Query parameters.
	 * @param array  $headers Headers.
	 */
	public function __construct( private string $method = 'POST', private array $json = array(), private array $query = array(), array $headers = array() ) {
		foreach ( $headers as $name => $value ) {
			$this->headers[ strtolower( str_replace( '-', '_', $name ) ) ] = $value;
		}
	}

	/**
	 * A header's value, null when absent.
	 *
	 * @param string $name Name.
	 */
	public function get_header( $name ) {
		return $this->headers[ strtolower( str_replace( '-', '_', $name ) ) ] ?? null;
	}

	/** The method. */
	public function get_method() {
		return $this->method;
	}

	/** Query parameters. */
	public function get_query_params() {
		return $this->query;
	}

	/** JSON body parameters. */
	public function get_json_params() {
		return $this->json;
	}

	/** Form body parameters. */
	public function get_body_params() {
		return array();
	}

	/**
	 * A parameter.
	 *
	 * @param string $key Key.
	 */
	public function get_param( $key ) {
		return $this->json[ $key ] ?? $this->query[ $key ] ?? null;
	}
}
