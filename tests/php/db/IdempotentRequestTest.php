<?php
/**
 * A create run once per Idempotency-Key, with WordPress's REST request and response, over the
 * keys' table in MariaDB.
 *
 * @package ServiceIntegration
 */

use ServiceIntegration\Support\Database_Error;
use ServiceIntegration\Manufacturing\Idempotency_Store;
use ServiceIntegration\Manufacturing\Idempotent_Request;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\Store_Test_Case;
use ServiceIntegration\Support\Wp_Options;

/**
 * Idempotent_Request::run(): when the work runs, what is kept and answered again, and that a key
 * the store could not check never lets the work run.
 */
final class IdempotentRequestTest extends Store_Test_Case {

	const NOW = 1767225600;

	/** The user the requests come from (the installed site's administrator). */
	const USER = 1;

	/**
	 * The rule under test.
	 *
	 * @var Idempotent_Request
	 */
	private Idempotent_Request $idempotent;

	/**
	 * The keys' table.
	 *
	 * @var string
	 */
	private string $table;

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
		parent::setUp();
		wp_set_current_user( self::USER );
		$store            = new Idempotency_Store( $this->db, new Fixed_Clock( self::NOW ), new Wp_Options( $this->db ) );
		$this->table      = $store->table();
		$this->idempotent = new Idempotent_Request( $store );
	}

	/**
	 * Restores what the tests changed.
	 */
	protected function tearDown(): void {
		wp_set_current_user( 0 );
		parent::tearDown();
	}

	/**
	 * A create request.
	 *
	 * @param string|null $key   The Idempotency-Key header, none when null.
	 * @param string      $title The body's title.
	 */
	private static function request( ?string $key, string $title = 'MO' ): WP_REST_Request {
		$request = new WP_REST_Request( 'POST', '/wp/v2/commandes-fabrication' );
		$request->set_body_params( array( 'title' => $title ) );
		if ( null !== $key ) {
			$request->set_header( 'Idempotency-Key', $key );
		}
		return $request;
	}

	/**
	 * Runs the request with work that answers $answer.
	 *
	 * @param WP_REST_Request $request Request.
	 * @param mixed           $answer  What the work answers (a callable: called for it).
	 * @return WP_REST_Response|WP_Error
	 */
	private function create( WP_REST_Request $request, $answer ) {
		return $this->idempotent->run(
			$request,
			'create:commande_fabrication',
			function () use ( $answer ) {
				++$this->runs;
				return is_callable( $answer ) ? $answer() : $answer;
			}
		);
	}

	/**
	 * The keys' rows.
	 *
	 * @return array<int, array<string, string|null>>
	 */
	private function keys(): array {
		return $this->rows( $this->table, '1 = 1 ORDER BY id' );
	}

	/**
	 * Without the header the work runs and no key is read nor kept.
	 */
	public function test_without_the_header_the_work_runs_and_no_key_is_read(): void {
		$sent   = $this->statements();
		$answer = $this->create( self::request( null ), new WP_REST_Response( array( 'id' => 7 ), 201 ) );
		$this->assertSame( 201, $answer->get_status() );
		$this->assertSame( 1, $this->runs );
		$this->assertCount( 0, $sent );
		$this->assertSame( array(), $this->keys() );
	}

	/**
	 * A bad key is refused with 400 before anything runs.
	 */
	public function test_a_bad_key_is_refused_with_400_before_anything_runs(): void {
		$sent   = $this->statements();
		$answer = $this->create( self::request( 'clé' ), new WP_REST_Response( array(), 201 ) );
		$this->assertSame( 'idempotency_key_invalid', $answer->get_error_code() );
		$this->assertSame( array( 'status' => 400 ), $answer->get_error_data() );
		$this->assertSame( 0, $this->runs );
		$this->assertCount( 0, $sent );
	}

	/**
	 * A key the store cannot claim is a 500 database error and nothing runs.
	 */
	public function test_a_key_the_store_cannot_claim_is_a_500_database_error_and_nothing_runs(): void {
		$this->refuse( 'INSERT', $this->table );
		$answer = $this->create( self::request( 'k1' ), new WP_REST_Response( array(), 201 ) );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
		$this->assertSame( array( 'status' => 500 ), $answer->get_error_data() );
		$this->assertSame( 0, $this->runs );
	}

	/**
	 * The first request runs and keeps its answer, under the current user's key.
	 */
	public function test_the_first_request_runs_and_keeps_its_answer_for_the_current_user(): void {
		$response = new WP_REST_Response( array( 'id' => 7 ), 201 );
		$response->header( 'Location', '/wp/v2/commandes-fabrication/7' );
		$this->assertSame( $response, $this->create( self::request( 'k1' ), $response ) );
		$this->assertSame( 1, $this->runs );
		$keys = $this->keys();
		$this->assertCount( 1, $keys );
		$this->assertSame(
			array( (string) self::USER, 'create:commande_fabrication', '201', '{"id":7}', '{"headers":{"Location":"\/wp\/v2\/commandes-fabrication\/7"},"links":[]}', '' ),
			array( $keys[0]['user_id'], $keys[0]['scope'], $keys[0]['response_status'], $keys[0]['response_data'], $keys[0]['response_meta'], $keys[0]['claim_token'] )
		);
		// Another user's same key is another key: that request runs.
		wp_set_current_user( 0 );
		$this->create( self::request( 'k1' ), new WP_REST_Response( array( 'id' => 8 ), 201 ) );
		$this->assertSame( 2, $this->runs );
	}

	/**
	 * An answer that cannot be kept still goes out (the record exists), and the key is not freed:
	 * a retry meets the held key until its lease ends, and the work does not run twice.
	 */
	public function test_an_answer_that_cannot_be_kept_still_goes_out_the_record_exists(): void {
		$this->refuse( 'UPDATE', $this->table );
		$answer = $this->create( self::request( 'k1' ), new WP_REST_Response( array( 'id' => 7 ), 201 ) );
		$this->assertSame( 201, $answer->get_status() );
		$this->assertCount( 1, $this->keys() );
		$this->assertNull( $this->keys()[0]['response_status'] );
		$retry = $this->create( self::request( 'k1' ), new WP_REST_Response( array( 'id' => 8 ), 201 ) );
		$this->assertSame( 409, $retry->get_status() );
		$this->assertSame( 1, $this->runs );
	}

	/**
	 * A refused request frees its key: the corrected retry runs.
	 */
	public function test_a_refused_request_releases_its_key_for_the_corrected_retry(): void {
		$refusal = new WP_Error( 'rest_invalid_param', 'Bad field', array( 'status' => 400 ) );
		$this->assertSame( $refusal, $this->create( self::request( 'k1' ), $refusal ) );
		$this->assertSame( array(), $this->keys() );
		$this->assertSame( 201, $this->create( self::request( 'k1', 'Corrected' ), new WP_REST_Response( array( 'id' => 7 ), 201 ) )->get_status() );
		$this->assertSame( 2, $this->runs );
	}

	/**
	 * An error response frees its key and is not kept.
	 */
	public function test_an_error_response_releases_its_key_and_is_not_kept(): void {
		$answer = $this->create( self::request( 'k1' ), new WP_REST_Response( array( 'code' => 'x' ), 409 ) );
		$this->assertSame( 409, $answer->get_status() );
		$this->assertSame( array(), $this->keys() );
	}

	/**
	 * Work that throws frees its key and the error goes on.
	 */
	public function test_work_that_throws_releases_its_key_and_the_error_goes_on(): void {
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
		$this->assertSame( array(), $this->keys() );
	}

	/**
	 * A replay answers the first answer, its headers and links, without running.
	 */
	public function test_a_replay_answers_the_first_answer_without_running(): void {
		$first = new WP_REST_Response( array( 'id' => 7 ), 201 );
		$first->header( 'Location', '/x/7' );
		$first->add_link( 'self', '/x/7' );
		$this->create( self::request( 'k1' ), $first );
		$answer = $this->create( self::request( 'k1' ), new WP_REST_Response( array(), 201 ) );
		$this->assertSame( 1, $this->runs );
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
		$this->create( self::request( 'k1' ), new WP_REST_Response( array( 'id' => 7 ), 201 ) );
		$answer = $this->create( self::request( 'k1', 'Another' ), new WP_REST_Response( array(), 201 ) );
		$this->assertSame( array( 'idempotency_key_reused', array( 'status' => 422 ) ), array( $answer->get_error_code(), $answer->get_error_data() ) );
		$this->assertSame( 1, $this->runs );
	}

	/**
	 * A key whose first request is still running answers 409 with Retry-After (the rest of its lease) without running.
	 */
	public function test_a_key_in_progress_answers_409_with_retry_after_without_running(): void {
		$during = null;
		$this->create(
			self::request( 'k1' ),
			function () use ( &$during ) {
				$during = $this->create( self::request( 'k1' ), new WP_REST_Response( array(), 201 ) );
				return new WP_REST_Response( array( 'id' => 7 ), 201 );
			}
		);
		$this->assertSame( 1, $this->runs );
		$this->assertSame( 409, $during->get_status() );
		$this->assertSame( 'idempotency_key_in_progress', $during->get_data()['code'] );
		$this->assertSame( array( 'Retry-After' => '60' ), $during->get_headers() );
	}
}
