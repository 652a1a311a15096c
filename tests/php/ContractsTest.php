<?php
/**
 * The PHP side's contract values against the sidecar's.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Contracts;

/**
 * Contracts mirrors constants of the sidecar's TypeScript: each is read from its source file
 * here, so a change on one side only fails this test instead of drifting.
 */
final class ContractsTest extends TestCase {

	/**
	 * The sidecar's source file.
	 *
	 * @param string $path Path under sidecar/src.
	 */
	private static function source( string $path ): string {
		$file = dirname( __DIR__, 2 ) . '/sidecar/src/' . $path;
		self::assertFileExists( $file );
		return (string) file_get_contents( $file );
	}

	/**
	 * A `export const NAME = [ 'a', 'b' ] as const;` list of the sidecar.
	 *
	 * @param string $path Path under sidecar/src.
	 * @param string $name Constant.
	 * @return string[]
	 */
	private static function list_of( string $path, string $name ): array {
		$found = preg_match( '/export const ' . $name . ' = \[([^\]]*)\] as const;/', self::source( $path ), $match );
		self::assertSame( 1, $found, "{$name} in sidecar/src/{$path}" );
		preg_match_all( "/'([^']*)'/", $match[1], $items );
		return $items[1];
	}

	/**
	 * A `export const NAME = /^pattern$/;` of the sidecar.
	 *
	 * @param string $path Path under sidecar/src.
	 * @param string $name Constant.
	 */
	private static function pattern_of( string $path, string $name ): string {
		$found = preg_match( '#export const ' . $name . ' = /\^(.*)\$/;#', self::source( $path ), $match );
		self::assertSame( 1, $found, "{$name} in sidecar/src/{$path}" );
		return $match[1];
	}

	/**
	 * Each list of values and its sidecar constant.
	 *
	 * @return array<string, array{string[], string, string}>
	 */
	public function lists(): array {
		return array(
			'event types'       => array( Contracts::EVENT_TYPES, 'contracts/constants.ts', 'EVENT_TYPES' ),
			'delivery statuses' => array( Contracts::DELIVERY_STATUSES, 'contracts/constants.ts', 'DELIVERY_STATUSES' ),
			'inbound schemes'   => array( Contracts::INBOUND_SCHEMES, 'contracts/constants.ts', 'INBOUND_SCHEMES' ),
			'source statuses'   => array( Contracts::SOURCE_STATUSES, 'contracts/constants.ts', 'SOURCE_STATUSES' ),
			'inbound outcomes'  => array( Contracts::INBOUND_OUTCOMES, 'contracts/constants.ts', 'INBOUND_OUTCOMES' ),
			'inbound refusals'  => array( Contracts::INBOUND_REFUSAL_CODES, 'contracts/constants.ts', 'INBOUND_REFUSAL_CODES' ),
		);
	}

	/**
	 * The PHP list is the sidecar's, in its order.
	 *
	 * @dataProvider lists
	 *
	 * @param string[] $php  The PHP side's list.
	 * @param string   $path The sidecar file.
	 * @param string   $name The sidecar constant.
	 */
	public function test_lists_match_the_sidecar( array $php, string $path, string $name ): void {
		$this->assertSame( self::list_of( $path, $name ), $php );
	}

	public function test_patterns_match_the_sidecar(): void {
		$this->assertSame( self::pattern_of( 'contracts/constants.ts', 'EVENT_ID_PATTERN' ), Contracts::EVENT_ID_PATTERN );
		$this->assertSame( self::pattern_of( 'contracts/constants.ts', 'SOURCE_ID_PATTERN' ), Contracts::SOURCE_SLUG_PATTERN );
	}

	public function test_the_forwarded_header_prefix_matches_the_sidecar(): void {
		$this->assertSame( 1, preg_match( "/export const FORWARDED_HEADER_PREFIX = '([^']*)';/", self::source( 'contracts/constants.ts' ), $match ) );
		$this->assertSame( $match[1], Contracts::FORWARD_HEADER_PREFIX );
	}

	public function test_the_deadline_header_matches_the_sidecar(): void {
		$this->assertSame( 1, preg_match( "/export const INBOUND_DEADLINE_HEADER = '([^']*)';/", self::source( 'contracts/constants.ts' ), $match ) );
		$this->assertSame( $match[1], Contracts::INBOUND_DEADLINE_HEADER );
	}

	public function test_anchored_patterns_accept_whole_values_only(): void {
		$slug = '/' . Contracts::anchored( Contracts::SOURCE_SLUG_PATTERN ) . '/';
		$this->assertSame( 1, preg_match( $slug, 'stripe-live' ) );
		$this->assertSame( 0, preg_match( $slug, 'Stripe' ) );
		$this->assertSame( 0, preg_match( $slug, 'a/b' ) );
		$this->assertSame( 0, preg_match( $slug, str_repeat( 'a', 65 ) ) );
		$id = '/' . Contracts::anchored( Contracts::EVENT_ID_PATTERN ) . '/';
		$this->assertSame( 1, preg_match( $id, 'evt_0123:abc-DEF' ) );
		$this->assertSame( 0, preg_match( $id, 'a.b' ) );
	}
}
