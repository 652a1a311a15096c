<?php
/**
 * WordPress's REST response, as much of it as Idempotent_Request reads.
 *
 * @package ServiceIntegration
 */

// phpcs:disable WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedClassFound -- a stand-in for WordPress's class of this name, loaded only by PHPUnit's bootstrap
/**
 * A response: data, status, headers and links.
 */
class WP_REST_Response {
	// phpcs:enable

	/**
	 * Headers.
	 *
	 * @var array<string, string>
	 */
	private array $headers = array();

	/**
	 * Links by relation.
	 *
	 * @var array<string, array>
	 */
	private array $links = array();

	/**
	 * Constructor.
	 *
	 * @param mixed $data   Data.
	 * @param int   $status Status.
	 */
	public function __construct( private $data = null, private int $status = 200 ) {
	}

	/** The data. */
	public function get_data() {
		return $this->data;
	}

	/** The status. */
	public function get_status() {
		return $this->status;
	}

	/** The headers. */
	public function get_headers() {
		return $this->headers;
	}

	/**
	 * Sets a header.
	 *
	 * @param string $name  Name.
	 * @param string $value Value.
	 */
	public function header( $name, $value ) {
		$this->headers[ $name ] = $value;
	}

	/** The links. */
	public function get_links() {
		return $this->links;
	}

	/**
	 * Adds a link.
	 *
	 * @param string $rel        Relation.
	 * @param string $href       Target.
	 * @param array  $attributes Attributes.
	 */
	public function add_link( $rel, $href, $attributes = array() ) {
		$this->links[ $rel ][] = array(
			'href'       => $href,
			'attributes' => $attributes,
		);
	}
}
