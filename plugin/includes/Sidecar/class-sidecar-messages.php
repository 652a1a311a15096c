<?php
/**
 * What the sidecar's codes mean, in the site's language, and how to start the sidecar here.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Sidecar;

use ServiceIntegration\Sidecar_Contract;
use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The sidecar answers in English with a code (Sidecar_Contract::API_ERROR_CODES for its API's
 * refusals, INBOUND_REFUSAL_CODES for the verification log): the one place that gives each code
 * a translated message. The proxy routes (and so the admin page and WP-CLI) pass a refusal on
 * with it, the admin page labels the log's codes with it (Admin_Page hands it the list), and
 * the sidecar's own English text stays a fallback for a code this version does not know.
 */
final class Sidecar_Messages {

	/** How the sidecar is started where the plugin's guides install it (docs/production.md). */
	const SERVICE_START_COMMAND = 'systemctl start service-integration-sidecar';

	/**
	 * Set in wp-config.php by an environment that starts its sidecar another way: the local
	 * site of `npm start` sets it to its own `npm run sidecar -- start` command.
	 */
	const START_COMMAND_CONSTANT = 'SERVICE_INTEGRATION_SIDECAR_START_COMMAND';

	/**
	 * The translated message of a sidecar code, or null for a code this version does not know.
	 *
	 * @param string $code The sidecar's code.
	 */
	public static function message( string $code ): ?string {
		return self::all()[ $code ] ?? null;
	}

	/**
	 * Every known code with its translated message.
	 *
	 * @return array<string, string>
	 */
	public static function all(): array {
		return array(
			// The API's refusals (API_ERROR_CODES).
			'invalid_json'        => __( 'The body is not valid JSON.', 'service-integration' ),
			'invalid_body'        => __( 'Some of the values sent are not valid.', 'service-integration' ),
			'invalid_query'       => __( 'Some of the filters are not valid.', 'service-integration' ),
			'invalid_url'         => __( 'The URL is not a valid absolute URL.', 'service-integration' ),
			'unsupported_scheme'  => __( 'The URL must start with https:// (or http:// where the sidecar allows it).', 'service-integration' ),
			'credentials_in_url'  => __( 'The URL must not contain a user name or password.', 'service-integration' ),
			'port_not_allowed'    => __( 'The URL uses a port the sidecar does not send to.', 'service-integration' ),
			'blocked_address'     => __( 'The URL points to a private, local or reserved network address, where the sidecar does not send webhooks (SIDECAR_ALLOW_PRIVATE_CIDRS allows chosen ranges).', 'service-integration' ),
			'invalid_event_type'  => __( 'Unknown event type.', 'service-integration' ),
			'invalid_secret'      => __( 'The signing secret is not valid for this signature scheme.', 'service-integration' ),
			'invalid_from'        => __( 'The start of the range is not a valid date and time.', 'service-integration' ),
			'invalid_to'          => __( 'The end of the range must be a valid date and time, later than its start.', 'service-integration' ),
			'invalid_limit'       => __( 'The number of events is out of range.', 'service-integration' ),
			'invalid_types'       => __( 'One of the event types is not known.', 'service-integration' ),
			'invalid_dry_run'     => __( 'The dry run option must be true or false.', 'service-integration' ),
			'endpoint_not_found'  => __( 'No endpoint with this id.', 'service-integration' ),
			'endpoint_disabled'   => __( 'This endpoint is disabled: enable it first.', 'service-integration' ),
			'event_not_found'     => __( 'No event with this id.', 'service-integration' ),
			'source_not_found'    => __( 'No inbound source with this id.', 'service-integration' ),
			'source_exists'       => __( 'An inbound source with this id already exists.', 'service-integration' ),
			'log_entry_not_found' => __( 'No verification log entry with this id.', 'service-integration' ),
			'replay_conflict'     => __( 'Another replay to this endpoint is being written right now; nothing was queued. Try again when it has finished.', 'service-integration' ),
			'payload_cleared'     => __( 'This event is past the payload retention: its content was cleared, there is nothing to send.', 'service-integration' ),
			'body_too_large'      => __( 'The request is too large for the sidecar.', 'service-integration' ),
			'bad_request'         => __( 'The sidecar could not read the request.', 'service-integration' ),
			'not_found'           => __( 'The sidecar has no such route: it may run another version than the plugin.', 'service-integration' ),
			'method_not_allowed'  => __( 'The sidecar does not take this method here.', 'service-integration' ),
			'internal_error'      => __( 'The sidecar failed to handle the request; its log says why.', 'service-integration' ),
			'store_unavailable'   => __( 'The sidecar cannot reach its database; nothing was stored. Try again later.', 'service-integration' ),
			'store_busy'          => __( 'The sidecar\'s database is busy (a statement ran out of time, or a concurrent change held this one back); nothing was stored. Try again in a few seconds.', 'service-integration' ),
			// The inbound verification's refusals (INBOUND_REFUSAL_CODES).
			'unknown_source'      => __( 'Unknown source: no inbound source has this name.', 'service-integration' ),
			'source_disabled'     => __( 'Source disabled', 'service-integration' ),
			'missing_signature'   => __( 'Signature missing', 'service-integration' ),
			'malformed_signature' => __( 'Signature malformed', 'service-integration' ),
			'invalid_signature'   => __( 'Signature does not match the secret', 'service-integration' ),
			'stale_timestamp'     => __( 'Timestamp too old or too far ahead', 'service-integration' ),
			'missing_event_id'    => __( 'No event id', 'service-integration' ),
			'invalid_utf8'        => __( 'Body is not valid UTF-8', 'service-integration' ),
			'invalid_payload'     => __( 'Body is not a valid event', 'service-integration' ),
			// What WordPress itself answers the sender, also in the log.
			'sidecar_unreachable' => __( 'The sidecar did not answer in time', 'service-integration' ),
		);
	}

	/**
	 * The command that starts the sidecar where this site runs: the one the environment names,
	 * else the service's.
	 */
	public static function start_command(): string {
		if ( defined( self::START_COMMAND_CONSTANT ) ) {
			$command = constant( self::START_COMMAND_CONSTANT );
			if ( is_string( $command ) && '' !== trim( $command ) ) {
				return trim( $command );
			}
		}
		return self::SERVICE_START_COMMAND;
	}

	/**
	 * What to do when the sidecar does not answer: start it (with the command that fits this
	 * site), then check that wp-config.php points at it.
	 */
	public static function unreachable_hint(): string {
		return sprintf(
			/* translators: %s: a shell command, e.g. systemctl start service-integration-sidecar. */
			__( 'Start it with %s and check its log; if it runs, check that SERVICE_INTEGRATION_SIDECAR_URL and SERVICE_INTEGRATION_SIDECAR_KEY in wp-config.php match its configuration.', 'service-integration' ),
			self::start_command()
		);
	}

	/**
	 * A refusal the sidecar answered, as a WP_Error in the site's language: the translated message
	 * of its code (the sidecar's English one for a code this version does not know), with the
	 * sidecar's data (status, field, problems…) and its English text as `detail`.
	 *
	 * @param int   $status The sidecar's HTTP status (400 or more).
	 * @param mixed $body   The sidecar's answer: {code, message, data}.
	 */
	public static function refusal( int $status, $body ): WP_Error {
		$code    = is_array( $body ) && isset( $body['code'] ) && is_string( $body['code'] ) ? $body['code'] : 'sidecar_error';
		$english = is_array( $body ) && isset( $body['message'] ) && is_string( $body['message'] ) ? $body['message'] : '';
		$data    = is_array( $body ) && isset( $body['data'] ) && is_array( $body['data'] ) ? $body['data'] : array();
		$message = self::message( $code );
		if ( null === $message ) {
			$message = '' === $english
				/* translators: %d: HTTP status. */
				? sprintf( __( 'The sidecar refused the request (HTTP %d).', 'service-integration' ), $status )
				: $english;
		}
		$data['status'] = $status;
		if ( '' !== $english ) {
			$data['detail'] = $english;
		}
		return new WP_Error( $code, $message, $data );
	}

	/**
	 * The codes whose messages the tests require: every code of the sidecar's contract.
	 *
	 * @return string[]
	 */
	public static function contract_codes(): array {
		return array_merge( Sidecar_Contract::API_ERROR_CODES, Sidecar_Contract::INBOUND_REFUSAL_CODES );
	}
}
