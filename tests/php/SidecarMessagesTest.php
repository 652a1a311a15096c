<?php
/**
 * The sidecar's codes in the site's language.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Sidecar\Sidecar_Messages;
use ServiceIntegration\Sidecar_Contract;

/**
 * Every code of the sidecar's contract (Sidecar_Contract, generated from
 * sidecar/src/contracts/constants.ts) has its translatable message, and a refusal goes on with
 * it in place of the sidecar's English text, which stays the fallback for an unknown code.
 */
final class SidecarMessagesTest extends TestCase {

	/**
	 * A code added to the sidecar's contract without a message here fails.
	 */
	public function test_every_code_of_the_contract_has_a_message(): void {
		$this->assertNotEmpty( Sidecar_Contract::API_ERROR_CODES );
		foreach ( Sidecar_Messages::contract_codes() as $code ) {
			$message = Sidecar_Messages::message( $code );
			$this->assertIsString( $message, $code );
			$this->assertNotSame( '', trim( $message ), $code );
			$this->assertNotSame( $code, $message, $code );
		}
	}

	/**
	 * No message for a code the contract does not have (but the one WordPress answers itself).
	 */
	public function test_only_codes_of_the_contract_have_messages(): void {
		$known = array_merge( Sidecar_Messages::contract_codes(), array( 'sidecar_unreachable' ) );
		$this->assertSame( array(), array_values( array_diff( array_keys( Sidecar_Messages::all() ), $known ) ) );
	}

	/**
	 * A refusal keeps its code, status and data; its message is the translated one, the English one its detail.
	 */
	public function test_a_refusal_carries_the_translated_message_and_the_sidecars_data(): void {
		$error = Sidecar_Messages::refusal(
			400,
			array(
				'code'    => 'blocked_address',
				'message' => 'url: Address 10.0.0.5 is in a blocked range.',
				'data'    => array(
					'status' => 400,
					'field'  => 'url',
				),
			)
		);
		$this->assertSame( 'blocked_address', $error->get_error_code() );
		$this->assertSame( Sidecar_Messages::message( 'blocked_address' ), $error->get_error_message() );
		$this->assertSame(
			array(
				'status' => 400,
				'field'  => 'url',
				'detail' => 'url: Address 10.0.0.5 is in a blocked range.',
			),
			$error->get_error_data()
		);
	}

	/**
	 * A code this version does not know keeps the sidecar's text; no text at all says the status.
	 */
	public function test_an_unknown_code_falls_back_to_the_sidecars_text(): void {
		$error = Sidecar_Messages::refusal(
			422,
			array(
				'code'    => 'some_future_code',
				'message' => 'Something new went wrong.',
			)
		);
		$this->assertSame( 'some_future_code', $error->get_error_code() );
		$this->assertSame( 'Something new went wrong.', $error->get_error_message() );
		$this->assertSame( 422, $error->get_error_data()['status'] );

		$bare = Sidecar_Messages::refusal( 502, 'not json' );
		$this->assertSame( 'sidecar_error', $bare->get_error_code() );
		$this->assertStringContainsString( '502', $bare->get_error_message() );
	}

	/**
	 * Without the environment's own command, the service's.
	 */
	public function test_the_start_command_is_the_services_unless_the_site_names_one(): void {
		$this->assertFalse( defined( Sidecar_Messages::START_COMMAND_CONSTANT ) );
		$this->assertSame( 'systemctl start service-integration-sidecar', Sidecar_Messages::start_command() );
		$this->assertStringContainsString( 'systemctl start service-integration-sidecar', Sidecar_Messages::unreachable_hint() );
	}
}
