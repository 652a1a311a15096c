<?php
/**
 * A create run once per Idempotency-Key, over the keys' store on a recording database.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Database_Error;
use ServiceIntegration\Manufacturing\Idempotency_Store;
use ServiceIntegration\Manufacturing\Idempotent_Request;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\In_Memory_Options;
use ServiceIntegration\Tests\Recording_Wpdb;

/**
 * Idempotent_Request::run(): when the work runs, what is kept, and that a key the store could
 * not check never lets the work run.
 */
final class IdempotentRequestTest extends TestCase {

	const NOW = 1767225600;

	/**
	 * The database.
	 *
	 * @var Recording_Wpdb
	 */
	private Recording_Wpdb $db;

	/**
	 * The rule under test.
	 *
	 * @var Idempotent_Request
	 */
	private Idempotent_Request $idempotent;

	/**
	 * How many times the work ran.
	 *
	 * @var int
	 */
	private int $runs = 0;

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		$GLOBALS['service_integration_test_wp'] = array( 'user' => 5 );
		$this->db                               = new Recording_Wpdb();
		$this->idempotent                       = new Idempotent_Request( new Idempotency_Store( $this->db, new Fixed_Clock( self::NOW ), new In_Memory_Options() ) );
	}

	/**
	 * Restores what the tests changed.
	 */
	protected function tearDown(): void {
		$GLOBALS['service_integration_test_wp'] = array();
	}

	/**
	 * A create request.
	 *
	 * @param string|null $key The Idempotency-Key header, none when null.
	 */
	private static function request( ?string $key ): WP_REST_Request {
		return new WP_REST_Request( 'POST', array( 'title' => 'MO' ), array(), null === $key ? array() : array( 'Idempotency-Key' => $key ) );
	}

	/**
	 * Runs the request with work that answers $answer.
	 *
	 * @param WP_REST_Request $request Request.
	 * @param mixed           $answer  What the work answers.
	 * @return WP_REST_Response|WP_Error
	 */
	private function create( WP_REST_Request $request, $answer ) {
		return $this->idempotent->run(
			$request,
			'create:commande_fabrication',
			function () use ( $answer ) {
				++$this->runs;
				return $answer;
			}
		);
	}

	/**
	 * Without the header the work runs and no key is read.
	 */
	public function test_without_the_header_the_work_runs_and_no_key_is_read(): void {
		$answer = $this->create( self::request( null ), new WP_REST_Response( array( 'id' => 7 ), 201 ) );
		$this->assertSame( 201, $answer->get_status() );
		$this->assertSame( 1, $this->runs );
		$this->assertSame( array(), $this->db->queries );
	}

	/**
	 * A bad key is refused with 400 before anything runs.
	 */
	public function test_a_bad_key_is_refused_with_400_before_anything_runs(): void {
		$answer = $this->create( self::request( 'clé' ), new WP_REST_Response( array(), 201 ) );
		$this->assertSame( 'idempotency_key_invalid', $answer->get_error_code() );
		$this->assertSame( array( 'status' => 400 ), $answer->get_error_data() );
		$this->assertSame( 0, $this->runs );
		$this->assertSame( array(), $this->db->queries );
	}

	/**
	 * A key the store cannot claim is a 500 database error and nothing runs.
	 */
	public function test_a_key_the_store_cannot_claim_is_a_500_database_error_and_nothing_runs(): void {
		$this->db->fails( 'INSERT IGNORE' );
		$answer = $this->create( self::request( 'k1' ), new WP_REST_Response( array(), 201 ) );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
		$this->assertSame( array( 'status' => 500 ), $answer->get_error_data() );
		$this->assertSame( 0, $this->runs );
	}

	/**
	 * The first request runs and keeps its answer for the current user.
	 */
	public function test_the_first_request_runs_and_keeps_its_answer_for_the_current_user(): void {
		$this->db->answers( 'INSERT IGNORE', 1, 3 );
		$this->db->answers( 'SET response_status', 1 );
		$response = new WP_REST_Response( array( 'id' => 7 ), 201 );
		$response->header( 'Location', '/wp/v2/commandes-fabrication/7' );
		$this->assertSame( $response, $this->create( self::request( 'k1' ), $response ) );
		$this->assertSame( 1, $this->runs );
		$this->assertSame( 5, $this->db->prepared[0]['args'][0] );
		$this->assertSame( 201, $this->db->prepared[1]['args'][0] );
		$this->assertSame( '{"id":7}', $this->db->prepared[1]['args'][1] );
		$this->assertSame( '{"headers":{"Location":"\/wp\/v2\/commandes-fabrication\/7"},"links":[]}', $this->db->prepared[1]['args'][2] );
	}

	/**
	 * An answer that cannot be kept still goes out the record exists.
	 */
	public function test_an_answer_that_cannot_be_kept_still_goes_out_the_record_exists(): void {
		$this->db->answers( 'INSERT IGNORE', 1, 3 );
		$this->db->fails( 'SET response_status' );
		$answer = $this->create( self::request( 'k1' ), new WP_REST_Response( array( 'id' => 7 ), 201 ) );
		$this->assertSame( 201, $answer->get_status() );
		// Not released: a retry meets the held key until its lease ends, not a free one.
		$this->assertCount( 0, array_filter( $this->db->sql(), static fn( string $sql ): bool => str_starts_with( $sql, 'DELETE' ) ) );
	}

	/**
	 * A refused request releases its key for the corrected retry.
	 */
	public function test_a_refused_request_releases_its_key_for_the_corrected_retry(): void {
		$this->db->answers( 'INSERT IGNORE', 1, 3 );
		$refusal = new WP_Error( 'rest_invalid_param', 'Bad field', array( 'status' => 400 ) );
		$this->assertSame( $refusal, $this->create( self::request( 'k1' ), $refusal ) );
		$this->assertStringStartsWith( 'DELETE FROM wp_si_idempotency_keys WHERE id = 3', $this->db->sql()[1] );
		$this->assertCount( 2, $this->db->queries );
	}

	/**
	 * An error response releases its key and is not kept.
	 */
	public function test_an_error_response_releases_its_key_and_is_not_kept(): void {
		$this->db->answers( 'INSERT IGNORE', 1, 3 );
		$answer = $this->create( self::request( 'k1' ), new WP_REST_Response( array( 'code' => 'x' ), 409 ) );
		$this->assertSame( 409, $answer->get_status() );
		$this->assertStringStartsWith( 'DELETE FROM', $this->db->sql()[1] );
		$this->assertCount( 2, $this->db->queries );
	}

	/**
	 * Work that throws releases its key and the error goes on.
	 */
	public function test_work_that_throws_releases_its_key_and_the_error_goes_on(): void {
		$this->db->answers( 'INSERT IGNORE', 1, 3 );
		try {
			$this->idempotent->run(
				self::request( 'k1' ),
				'scope',
				static function () {
					throw new RuntimeException( 'fatal' );
				}
			);
			$this->fail( 'The error was swallowed.' );
		} catch ( RuntimeException $error ) {
			$this->assertSame( 'fatal', $error->getMessage() );
		}
		$this->assertStringStartsWith( 'DELETE FROM', $this->db->sql()[1] );
	}

	/**
	 * A replay answers the first answer without running.
	 */
	public function test_a_replay_answers_the_first_answer_without_running(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers(
			'SELECT *',
			(object) array(
				'id'              => '3',
				'fingerprint'     => self::fingerprint_of( self::request( 'k1' ) ),
				'claim_token'     => '',
				'response_status' => '201',
				'response_data'   => '{"id":7}',
				'response_meta'   => '{"headers":{"Location":"/x/7"},"links":{"self":[{"href":"/x/7","attributes":[]}]}}',
				'locked_until'    => null,
				'expires_at'      => '2026-01-01 12:00:00',
			)
		);
		$answer = $this->create( self::request( 'k1' ), new WP_REST_Response( array(), 201 ) );
		$this->assertSame( 0, $this->runs );
		$this->assertSame( array( 201, array( 'id' => 7 ) ), array( $answer->get_status(), $answer->get_data() ) );
		$this->assertSame(
			array(
				'Location'            => '/x/7',
				'Idempotent-Replayed' => 'true',
			),
			$answer->get_headers()
		);
		$this->assertSame(
			array(
				'self' => array(
					array(
						'href'       => '/x/7',
						'attributes' => array(),
					),
				),
			),
			$answer->get_links()
		);
	}

	/**
	 * The key with another request is refused with 422 without running.
	 */
	public function test_the_key_with_another_request_is_refused_with_422_without_running(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers(
			'SELECT *',
			(object) array(
				'id'              => '3',
				'fingerprint'     => str_repeat( '0', 64 ),
				'claim_token'     => '',
				'response_status' => '201',
				'locked_until'    => null,
				'expires_at'      => '2026-01-01 12:00:00',
			)
		);
		$answer = $this->create( self::request( 'k1' ), new WP_REST_Response( array(), 201 ) );
		$this->assertSame( array( 'idempotency_key_reused', array( 'status' => 422 ) ), array( $answer->get_error_code(), $answer->get_error_data() ) );
		$this->assertSame( 0, $this->runs );
	}

	/**
	 * A key in progress answers 409 with retry after without running.
	 */
	public function test_a_key_in_progress_answers_409_with_retry_after_without_running(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers(
			'SELECT *',
			(object) array(
				'id'              => '3',
				'fingerprint'     => self::fingerprint_of( self::request( 'k1' ) ),
				'claim_token'     => 'tok',
				'response_status' => null,
				'locked_until'    => '2026-01-01 00:00:42',
				'expires_at'      => '2026-01-01 12:00:00',
			)
		);
		$answer = $this->create( self::request( 'k1' ), new WP_REST_Response( array(), 201 ) );
		$this->assertSame( 409, $answer->get_status() );
		$this->assertSame( 'idempotency_key_in_progress', $answer->get_data()['code'] );
		$this->assertSame( array( 'Retry-After' => '42' ), $answer->get_headers() );
		$this->assertSame( 0, $this->runs );
	}

	/**
	 * The fingerprint Idempotent_Request stores for a request: the one its first claim inserted.
	 *
	 * @param WP_REST_Request $request Request.
	 */
	private static function fingerprint_of( WP_REST_Request $request ): string {
		$db = new Recording_Wpdb();
		$db->answers( 'INSERT IGNORE', 1, 1 );
		( new Idempotent_Request( new Idempotency_Store( $db, new Fixed_Clock( self::NOW ), new In_Memory_Options() ) ) )->run( $request, 'scope', static fn() => new WP_REST_Response( array(), 500 ) );
		return $db->prepared[0]['args'][3];
	}
}
