<?php
/**
 * What the database-backed store tests share: WordPress's real wpdb on MariaDB, the plugin's
 * tables created by their own install(), and each test starting from empty tables.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Tests;

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Inbound\Inbound_Store;
use ServiceIntegration\Manufacturing\Idempotency_Store;
use ServiceIntegration\Outbound\Outbox;
use ServiceIntegration\Support\Wp_Options;

/**
 * Each test reads what a store returns and what it left in the tables. Faults are the
 * database's own: a table renamed away (every query on it fails) or a trigger that refuses
 * one kind of write (that statement alone fails), both undone after the test.
 */
abstract class Store_Test_Case extends TestCase {

	/** The options the tests and the stores write, removed before each test. */
	const TEST_OPTIONS = array( 'a_lock', 'a_state', Outbox::WRITE_FAILURES_OPTION );

	/**
	 * WordPress's database connection.
	 *
	 * @var \wpdb
	 */
	protected \wpdb $db;

	/**
	 * Tables renamed away by break_table(): real name => name while broken.
	 *
	 * @var array<string, string>
	 */
	private array $broken = array();

	/**
	 * Triggers created by refuse().
	 *
	 * @var string[]
	 */
	private array $triggers = array();

	/**
	 * A second connection, as another request would have (see other_request()); one for the
	 * whole suite, since PHPUnit keeps every test object until the end.
	 *
	 * @var \wpdb|null
	 */
	private static ?\wpdb $other = null;

	/**
	 * Whether the statement being sent is the test's own (set-up, reads, faults): just_before()
	 * and statements() watch the store's statements only.
	 *
	 * @var bool
	 */
	private bool $own = false;

	/**
	 * Callbacks hooked to WordPress's query filter by just_before().
	 *
	 * @var callable[]
	 */
	private array $hooks = array();

	/**
	 * Creates the plugin's tables with their own schema code (dbDelta), once per class.
	 */
	public static function setUpBeforeClass(): void {
		global $wpdb;
		$clock   = new Fixed_Clock( 0 );
		$options = new Wp_Options( $wpdb );
		( new Outbox( $wpdb, $clock, $options ) )->install();
		( new Inbound_Store( $wpdb, $clock, $options ) )->install();
		( new Idempotency_Store( $wpdb, $clock, $options ) )->install();
	}

	/**
	 * Empty plugin tables, none of the test options, an empty object cache.
	 */
	protected function setUp(): void {
		global $wpdb;
		$this->db = $wpdb;
		foreach ( array( Outbox::TABLE, Inbound_Store::TABLE, Idempotency_Store::TABLE ) as $table ) {
			$this->sql( "DELETE FROM {$this->db->prefix}{$table}" );
		}
		foreach ( self::TEST_OPTIONS as $name ) {
			$this->sql( $this->db->prepare( "DELETE FROM {$this->db->options} WHERE option_name = %s", $name ) );
		}
		wp_cache_flush();
		$this->db->last_error = '';
	}

	/**
	 * Undoes the faults a test set up.
	 */
	protected function tearDown(): void {
		foreach ( $this->hooks as $hook ) {
			remove_filter( 'query', $hook );
		}
		$this->hooks = array();
		foreach ( $this->triggers as $trigger ) {
			$this->sql( "DROP TRIGGER IF EXISTS {$trigger}" );
		}
		$this->triggers = array();
		$this->mend_tables();
	}

	/**
	 * Puts back the tables break_table() took away (to read what a failed run left in them).
	 */
	protected function mend_tables(): void {
		foreach ( $this->broken as $table => $away ) {
			$this->sql( "RENAME TABLE {$away} TO {$table}" );
		}
		$this->broken = array();
	}

	/**
	 * Runs SQL of the test's own on another connection (so the store's connection keeps its own
	 * state, and it can run from inside just_before()); a failure fails the test.
	 *
	 * @param string $sql SQL.
	 */
	protected function sql( string $sql ): void {
		$other             = $this->other_request();
		$other->last_error = '';
		$this->assertNotFalse( $this->own( fn() => $other->query( $sql ) ), $sql . ': ' . $other->last_error );
	}

	/**
	 * Runs $query as the test's own: not watched by just_before() nor counted by statements().
	 *
	 * @param callable $query Sends the test's statement.
	 * @return mixed What $query returns.
	 */
	protected function own( callable $query ) {
		$was       = $this->own;
		$this->own = true;
		try {
			return $query();
		} finally {
			$this->own = $was;
		}
	}

	/**
	 * The rows of a table (without its prefix), in id order, as arrays.
	 *
	 * @param string $table Table name without the prefix, or with it when it is core's.
	 * @param string $where SQL condition.
	 * @return array<int, array<string, string|null>>
	 */
	protected function rows( string $table, string $where = '1 = 1' ): array {
		$name = str_starts_with( $table, $this->db->prefix ) ? $table : $this->db->prefix . $table;
		$rows = $this->own( fn() => $this->db->get_results( "SELECT * FROM {$name} WHERE {$where}", ARRAY_A ) ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- the test's own table and condition
		$this->assertSame( '', $this->db->last_error );
		return $rows;
	}

	/**
	 * An option's value as stored in the table (null when there is no row).
	 *
	 * @param string $name Option name.
	 */
	protected function stored_option( string $name ): ?string {
		return $this->own( fn() => $this->db->get_var( $this->db->prepare( "SELECT option_value FROM {$this->db->options} WHERE option_name = %s", $name ) ) );
	}

	/**
	 * Every query on the table fails until the test ends (it is renamed away).
	 *
	 * @param string $table Full table name.
	 */
	protected function break_table( string $table ): void {
		$away = $table . '_away';
		$this->sql( "RENAME TABLE {$table} TO {$away}" );
		$this->broken[ $table ] = $away;
	}

	/**
	 * The database refuses one kind of write to a table (INSERT, UPDATE or DELETE) on rows
	 * matching $condition (over NEW. or OLD.), until the test ends.
	 *
	 * @param string $event     INSERT, UPDATE or DELETE.
	 * @param string $table     Full table name.
	 * @param string $condition SQL condition over the row.
	 */
	protected function refuse( string $event, string $table, string $condition = 'TRUE' ): void {
		$trigger = 'si_test_refuse_' . strtolower( $event ) . '_' . count( $this->triggers );
		$this->sql( "CREATE TRIGGER {$trigger} BEFORE {$event} ON {$table} FOR EACH ROW BEGIN IF {$condition} THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused by the test'; END IF; END" );
		$this->triggers[] = $trigger;
	}

	/**
	 * Another request's own connection to the same database.
	 */
	protected function other_request(): \wpdb {
		self::$other ??= new \wpdb( DB_USER, DB_PASSWORD, DB_NAME, DB_HOST );
		return self::$other;
	}

	/**
	 * Runs $then just before this connection sends its next statement containing $fragment
	 * (through WordPress's query filter), for the next $times such statements: what another
	 * request does in between two statements of the store's, or a fault that strikes at that moment.
	 *
	 * @param string   $fragment Part of the statement that marks the moment.
	 * @param callable $then     What happens then.
	 * @param int      $times    How many of those statements it precedes.
	 */
	protected function just_before( string $fragment, callable $then, int $times = 1 ): void {
		$hook = function ( $query ) use ( $fragment, $then, &$times ) {
			if ( ! $this->own && $times > 0 && str_contains( (string) $query, $fragment ) ) {
				--$times;
				$then();
			}
			return $query;
		};
		add_filter( 'query', $hook );
		$this->hooks[] = $hook;
	}

	/**
	 * Counts the statements this connection sends from now on.
	 *
	 * @return \ArrayObject<int, string> The statements, growing as they are sent.
	 */
	protected function statements(): \ArrayObject {
		$sent = new \ArrayObject();
		$hook = function ( $query ) use ( $sent ) {
			if ( ! $this->own ) {
				$sent[] = (string) $query;
			}
			return $query;
		};
		add_filter( 'query', $hook );
		$this->hooks[] = $hook;
		return $sent;
	}
}
