<?php
/**
 * The PHP side of the sidecar channel's signature.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Sidecar\Channel_Signature;

/**
 * Both implementations (this class and sidecar/src/channel/channel-signature.ts) sign the
 * vectors of tests/fixtures/channel-signature-vectors.json, computed by neither of them, so a
 * change to one side's formula fails here or in tests/unit/sidecar/channel-signature.test.ts.
 */
final class ChannelSignatureTest extends TestCase {

	/**
	 * The shared vectors, one PHPUnit data set each.
	 *
	 * @return array<string, array{0: array}>
	 */
	public static function vectors(): array {
		$file    = dirname( __DIR__ ) . '/fixtures/channel-signature-vectors.json';
		$vectors = json_decode( (string) file_get_contents( $file ), true )['vectors']; // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- no WordPress here; a local fixture
		$sets    = array();
		foreach ( $vectors as $index => $vector ) {
			$sets[ $vector['kind'] . ' ' . $index ] = array( $vector );
		}
		return $sets;
	}

	/**
	 * Each vector's signature, from the PHP formula.
	 *
	 * @dataProvider vectors
	 *
	 * @param array $vector One vector.
	 */
	public function test_signs_the_shared_vectors( array $vector ): void {
		$signature = 'request' === $vector['kind']
			? Channel_Signature::sign_request( $vector['key'], $vector['timestamp'], $vector['request_id'], $vector['method'], $vector['path'], $vector['body'] )
			: Channel_Signature::sign_response( $vector['key'], $vector['timestamp'], $vector['request_id'], $vector['status'], $vector['body'] );
		$this->assertSame( $vector['signature'], $signature );
	}

	/**
	 * A signature is valid only with the same bytes and a timestamp within the tolerance.
	 */
	public function test_accepts_only_the_same_signature_within_the_tolerance(): void {
		$now       = time();
		$signature = Channel_Signature::sign_response( 'k', $now, 'r', 200, '{}' );
		$this->assertTrue( Channel_Signature::is_valid( $signature, $signature, $now ) );
		$this->assertFalse( Channel_Signature::is_valid( $signature, Channel_Signature::sign_response( 'k', $now, 'r', 201, '{}' ), $now ) );
		$this->assertFalse( Channel_Signature::is_valid( $signature, substr( $signature, 0, -1 ), $now ) );
		$this->assertFalse( Channel_Signature::is_valid( $signature, $signature, $now - Channel_Signature::TOLERANCE_SECONDS - 5 ) );
		$this->assertFalse( Channel_Signature::is_valid( $signature, $signature, $now + Channel_Signature::TOLERANCE_SECONDS + 5 ) );
	}
}
