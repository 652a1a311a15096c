<?php
/**
 * A database connection that records what it is asked and answers from a script.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Tests;

/**
 * Stands in for WordPress's wpdb in the stores' unit tests. prepare() substitutes its values
 * the way core's does (strings quoted, %d as integers) and remembers the template and the
 * values; every query is recorded; an answer scripted for a fragment of the SQL is returned
 * by the first query containing it (once), anything else gets what an empty table gives.
 * A scripted failure answers as core's wpdb does on a database error: last_error set, and
 * false from query(), update(), replace() and delete(), an empty array from get_results() and get_col(), null
 * from get_row() and get_var().
 */
final class Recording_Wpdb extends \wpdb {

	/**
	 * Prepared statements: each {sql: template, args: values}.
	 *
	 * @var array<int, array{sql: string, args: array}>
	 */
	public array $prepared = array();

	/**
	 * Queries run: each {method, sql}.
	 *
	 * @var array<int, array{method: string, sql: string}>
	 */
	public array $queries = array();

	/**
	 * The update() calls: each {table, data, where}.
	 *
	 * @var array<int, array{table: string, data: array, where: array}>
	 */
	public array $updates = array();

	/**
	 * The replace() and delete() calls: each {method, table, data (the row or the where), format}.
	 *
	 * @var array<int, array{method: string, table: string, data: array, format: mixed}>
	 */
	public array $writes = array();

	/**
	 * Scripted answers: each {fragment, result, error, insert_id, used}.
	 *
	 * @var array<int, array<string, mixed>>
	 */
	private array $script = array();

	/**
	 * The next query containing $fragment returns $result.
	 *
	 * @param string $fragment  Part of the SQL (or of "UPDATE <table>" for update()).
	 * @param mixed  $result    What the method returns.
	 * @param int    $insert_id The id an INSERT created.
	 */
	public function answers( string $fragment, $result, int $insert_id = 0 ): self {
		$this->script[] = array(
			'fragment'  => $fragment,
			'result'    => $result,
			'error'     => '',
			'insert_id' => $insert_id,
			'used'      => false,
		);
		return $this;
	}

	/**
	 * The next query containing $fragment fails with $error.
	 *
	 * @param string $fragment Part of the SQL.
	 * @param string $error    The database's message.
	 */
	public function fails( string $fragment, string $error = 'Lost connection to MySQL server during query' ): self {
		$this->script[] = array(
			'fragment'  => $fragment,
			'result'    => null,
			'error'     => $error,
			'insert_id' => 0,
			'used'      => false,
		);
		return $this;
	}

	/**
	 * The SQL of the queries run, in order.
	 *
	 * @return string[]
	 */
	public function sql(): array {
		return array_column( $this->queries, 'sql' );
	}

	/**
	 * Core's prepare(): values given one by one or as one array.
	 *
	 * @param string $query   Template with %s, %d, %f.
	 * @param mixed  ...$args Values.
	 * @throws \InvalidArgumentException When the values do not match the placeholders.
	 */
	public function prepare( $query, ...$args ) {
		if ( 1 === count( $args ) && is_array( $args[0] ) ) {
			$args = $args[0];
		}
		$args             = array_values( $args );
		$this->prepared[] = array(
			'sql'  => $query,
			'args' => $args,
		);
		$index            = 0;
		$sql              = preg_replace_callback(
			'/%([sdf])/',
			static function ( array $found ) use ( $args, &$index ): string {
				if ( ! array_key_exists( $index, $args ) ) {
					throw new \InvalidArgumentException( 'prepare(): fewer values than placeholders' );
				}
				$value = $args[ $index++ ];
				if ( 'd' === $found[1] ) {
					return (string) (int) $value;
				}
				if ( 'f' === $found[1] ) {
					return (string) (float) $value;
				}
				return "'" . addslashes( (string) $value ) . "'";
			},
			$query
		);
		if ( count( $args ) !== $index ) {
			throw new \InvalidArgumentException( 'prepare(): more values than placeholders' );
		}
		return $sql;
	}

	/**
	 * Core's esc_like(): LIKE's wildcards and escape character escaped.
	 *
	 * @param string $text Text.
	 */
	public function esc_like( $text ) {
		return addcslashes( $text, '_%\\' );
	}

	/**
	 * Runs a statement: rows affected, or false.
	 *
	 * @param string $sql SQL.
	 */
	public function query( $sql ) {
		return $this->run( 'query', $sql, 0, false );
	}

	/**
	 * Rows as objects.
	 *
	 * @param string $sql SQL.
	 */
	public function get_results( $sql ) {
		return $this->run( 'get_results', $sql, array(), array() );
	}

	/**
	 * One row.
	 *
	 * @param string $sql SQL.
	 */
	public function get_row( $sql ) {
		return $this->run( 'get_row', $sql, null, null );
	}

	/**
	 * One value.
	 *
	 * @param string $sql SQL.
	 */
	public function get_var( $sql ) {
		return $this->run( 'get_var', $sql, null, null );
	}

	/**
	 * One column.
	 *
	 * @param string $sql SQL.
	 */
	public function get_col( $sql ) {
		return $this->run( 'get_col', $sql, array(), array() );
	}

	/**
	 * Core's update(): rows affected, or false.
	 *
	 * @param string       $table        Table.
	 * @param array        $data         Column => value.
	 * @param array        $where        Column => value.
	 * @param string|array $format       Formats of $data.
	 * @param string|array $where_format Formats of $where.
	 */
	public function update( $table, $data, $where, $format = null, $where_format = null ) {
		$this->updates[] = array(
			'table' => $table,
			'data'  => $data,
			'where' => $where,
		);
		return $this->run( 'update', 'UPDATE ' . $table . ' SET ' . implode( ', ', array_keys( $data ) ) . ' WHERE ' . implode( ', ', array_keys( $where ) ), 1, false );
	}

	/**
	 * Core's replace(): rows affected (1 new, 2 replaced), or false. Recorded in $writes.
	 *
	 * @param string       $table  Table.
	 * @param array        $data   Column => value.
	 * @param string|array $format Formats of $data.
	 */
	public function replace( $table, $data, $format = null ) {
		$this->writes[] = array(
			'method' => 'replace',
			'table'  => $table,
			'data'   => $data,
			'format' => $format,
		);
		return $this->run( 'replace', 'REPLACE INTO ' . $table . ' (' . implode( ', ', array_keys( $data ) ) . ')', 1, false );
	}

	/**
	 * Core's delete(): rows affected, or false. Recorded in $writes.
	 *
	 * @param string       $table        Table.
	 * @param array        $where        Column => value.
	 * @param string|array $where_format Formats of $where.
	 */
	public function delete( $table, $where, $where_format = null ) {
		$this->writes[] = array(
			'method' => 'delete',
			'table'  => $table,
			'data'   => $where,
			'format' => $where_format,
		);
		return $this->run( 'delete', 'DELETE FROM ' . $table . ' WHERE ' . implode( ', ', array_keys( $where ) ), 1, false );
	}

	/**
	 * The tables' character set clause.
	 */
	public function get_charset_collate() {
		return 'DEFAULT CHARACTER SET utf8mb4';
	}

	/**
	 * Records a query and answers it.
	 *
	 * @param string $method   The wpdb method.
	 * @param string $sql      SQL.
	 * @param mixed  $fallback What an empty table answers.
	 * @param mixed  $failure  What core answers on a database error.
	 */
	private function run( string $method, string $sql, $fallback, $failure ) {
		$this->last_error = '';
		$this->queries[]  = array(
			'method' => $method,
			'sql'    => $sql,
		);
		foreach ( $this->script as $position => $answer ) {
			if ( ! $answer['used'] && str_contains( $sql, $answer['fragment'] ) ) {
				$this->script[ $position ]['used'] = true;
				if ( '' !== $answer['error'] ) {
					$this->last_error = $answer['error'];
					return $failure;
				}
				$this->insert_id = $answer['insert_id'];
				return $answer['result'];
			}
		}
		return $fallback;
	}
}
